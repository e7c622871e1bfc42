// Chatwoot's mentions in private notes: `[@Ann Agent](mention://user/3/Ann%20Agent)`. Shared by the
// server (who is notified, notification titles) and the web app (how a note reads), so both read
// the format the same way. No imports: safe in the browser bundle.

const MENTION_LINK = /\[(@[^\]]*)\]\(mention:\/\/user\/\d+\/[^)]*\)/g;
const MENTIONED_ID = /mention:\/\/user\/(\d+)\//g;

/** The text as people read it: each mention becomes its `@Name`. */
export function mentionsAsText(content: string): string {
  return content.replace(MENTION_LINK, "$1");
}

/** The users a text mentions, each once. */
export function mentionedUserIds(content: string): number[] {
  return [...new Set([...content.matchAll(MENTIONED_ID)].map((m) => Number(m[1])))];
}

/** A mention of a user, to put in a note. */
export function mentionOf(userId: number, name: string): string {
  return `[@${name.replace(/[[\]]/g, "")}](mention://user/${userId}/${encodeURIComponent(name)})`;
}

// U+0000 in text: no client means one, and PostgreSQL's text and jsonb cannot hold one. The API
// refuses it (src/http/body.ts); text that arrives another way (mail, rows written before the API
// refused it) is stored without it.

/** `text` without NUL characters (the same string when it has none). */
export function withoutNul(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "") : text;
}

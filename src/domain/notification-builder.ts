// Who is notified of an event, and of what (Chatwoot's notification types). Pure over the event and
// a few facts about the account, read as they are asked (most events ask none), so the rules can be
// read and tested in one place:
// - conversation_creation: every member of the conversation's inbox but the one who created it;
// - conversation_assignment: the new assignee, unless they assigned themselves;
// - conversation_mention: each agent mentioned in a private note (Chatwoot's
//   `[@Name](mention://user/ID/Name)`) who may see the conversation, but not the writer;
// - assigned_conversation_new_message: the assignee, for a message (a private note too) by anyone
//   else, unless that message already mentioned them.
// Activity and template messages (the CSAT survey) notify nobody.
import type { Reads } from "../db/reads.ts";
import type { StoredEvent } from "../shared/event-types.ts";
import { mentionedUserIds, mentionsAsText } from "../shared/mentions.ts";

export type NotificationType =
  | "conversation_creation"
  | "conversation_assignment"
  | "assigned_conversation_new_message"
  | "conversation_mention";
export const NOTIFICATION_TYPES: readonly NotificationType[] = [
  "conversation_creation",
  "conversation_assignment",
  "assigned_conversation_new_message",
  "conversation_mention",
];

export interface Planned {
  userId: number;
  type: NotificationType;
  title: string;
  /** The message or user behind it (push data), when there is one. */
  secondary: Record<string, unknown> | null;
}

export interface AccountFacts {
  inboxMembers(inboxId: number): Reads<Set<number>>;
  /** Whether the user may see the inbox's conversations (an administrator, or a member of it). */
  maySee(userId: number, inboxId: number): Reads<boolean>;
  inboxName(inboxId: number): Reads<string>;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" ? (v as Obj) : {});
function excerpt(content: unknown): string {
  const words = mentionsAsText(typeof content === "string" ? content : "")
    .split(/\s+/)
    .filter(Boolean);
  return words.length > 10 ? `${words.slice(0, 10).join(" ")}…` : words.join(" ");
}

/** The conversation's push data an event carries. */
export function conversationOf(e: StoredEvent): Obj {
  return e.kind === "message_created" ? obj(e.payload.conversation) : e.payload;
}

/** The only kinds that notify anyone: the others return before their payload is parsed. */
const NOTIFYING = new Set<StoredEvent["kind"]>(["conversation_created", "assignee_changed", "message_created"]);

export function* planNotifications(e: StoredEvent, facts: AccountFacts): Reads<Planned[]> {
  if (!NOTIFYING.has(e.kind)) return [];
  const conversation = conversationOf(e);
  const displayId = conversation.id;
  const assigneeId = obj(obj(conversation.meta).assignee).id;
  const actorUser = e.actor.type === "user" ? e.actor.id : null;
  if (e.kind === "conversation_created" && e.inboxId !== null) {
    const title = `New conversation #${displayId} in ${yield* facts.inboxName(e.inboxId)}`;
    return [...(yield* facts.inboxMembers(e.inboxId))]
      .filter((u) => u !== actorUser)
      .map((userId) => ({ userId, type: "conversation_creation", title, secondary: null }));
  }
  if (e.kind === "assignee_changed") {
    if (typeof assigneeId !== "number" || assigneeId === actorUser) return [];
    return [
      {
        userId: assigneeId,
        type: "conversation_assignment",
        title: `Conversation #${displayId} was assigned to you`,
        secondary: null,
      },
    ];
  }
  if (e.kind !== "message_created" || e.inboxId === null) return [];
  const type = e.payload.message_type;
  if (type !== "incoming" && type !== "outgoing") return [];
  const content = typeof e.payload.content === "string" ? e.payload.content : "";
  const secondary = {
    id: e.payload.id,
    content: e.payload.content,
    message_type: type,
    private: e.payload.private,
    sender: e.payload.sender ?? null,
  };
  const mentioned: number[] = [];
  if (e.payload.private === true)
    for (const u of mentionedUserIds(content))
      if (u !== actorUser && (yield* facts.maySee(u, e.inboxId))) mentioned.push(u);
  const planned: Planned[] = mentioned.map((userId) => ({
    userId,
    type: "conversation_mention",
    title: `[#${displayId}] ${excerpt(content)}`,
    secondary,
  }));
  if (typeof assigneeId === "number" && assigneeId !== actorUser && !mentioned.includes(assigneeId)) {
    planned.push({
      userId: assigneeId,
      type: "assigned_conversation_new_message",
      title: `New message in conversation #${displayId}: ${excerpt(content)}`,
      secondary,
    });
  }
  return planned;
}

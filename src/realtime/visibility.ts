// Who may see which event on the realtime stream, as Chatwoot's ActionCable listener decides it:
// agents see the conversations (and their messages and typing) of inboxes they are members of,
// administrators all of them, and every agent the account's contact events; a contact sees only
// the public events of their own conversations — never private notes, activity messages, other
// contacts' anything, or their own typing echoed back. Pure over the event and an Audience.
import type { AccountMember, RealtimeRepo } from "../db/realtime.repo.ts";
import { nested, type Reads } from "../db/reads.ts";
import type { EventKind, StoredEvent } from "../shared/event-types.ts";

/** Outbox kinds streamed, with Chatwoot's realtime names. Other kinds (inbox_*, internal ones) use seq numbers but are not sent. */
export const REALTIME_NAMES: Partial<Record<EventKind, string>> = {
  conversation_created: "conversation.created",
  conversation_status_changed: "conversation.status_changed",
  conversation_updated: "conversation.updated",
  assignee_changed: "assignee.changed",
  team_changed: "team.changed",
  message_created: "message.created",
  message_updated: "message.updated",
  conversation_typing_on: "conversation.typing_on",
  conversation_typing_off: "conversation.typing_off",
  contact_created: "contact.created",
  contact_updated: "contact.updated",
  contact_deleted: "contact.deleted",
  contact_merged: "contact.merged",
};

const CONTACT_KINDS = new Set<EventKind>(["contact_created", "contact_updated", "contact_deleted", "contact_merged"]);
export const TYPING_KINDS = new Set<EventKind>(["conversation_typing_on", "conversation_typing_off"]);
/** What a contact's stream carries (besides agents' typing). */
const CONTACT_VISIBLE = new Set<EventKind>([
  "message_created",
  "message_updated",
  "conversation_status_changed",
  "conversation_updated",
]);

export type Viewer =
  | { kind: "user"; accountId: number; userId: number }
  | {
      kind: "contact";
      accountId: number;
      contactId: number;
      contactInboxId: number;
      /** Verified identities see all the contact's conversations; others only this contact_inbox's (§6.6). */
      hmacVerified: boolean;
    };

/**
 * Membership facts, each read once and remembered: build one per batch of events, so a permission
 * change applies from the next batch and 1,000 sockets cost one query per inbox, not 1,000.
 */
export class Audience {
  private readonly members = new Map<number, Map<number, AccountMember>>();
  private readonly inboxes = new Map<number, Set<number>>();

  constructor(private readonly repo: RealtimeRepo) {}

  member(accountId: number, userId: number): AccountMember | null {
    let m = this.members.get(accountId);
    if (!m) this.members.set(accountId, (m = this.repo.accountMembers(accountId)));
    return m.get(userId) ?? null;
  }

  inboxMember(inboxId: number, userId: number): boolean {
    let s = this.inboxes.get(inboxId);
    if (!s) this.inboxes.set(inboxId, (s = this.repo.inboxMemberIds(inboxId)));
    return s.has(userId);
  }

  /**
   * Reads the facts `visible(e, v, this)` will ask for, as steps a caller runs in place or awaits
   * (the HTTP catch-up on PostgreSQL), so that `visible` then finds them all remembered.
   */
  *readFacts(e: StoredEvent, v: Viewer): Reads<void> {
    if (v.kind !== "user" || !streamed(e, v)) return;
    let m = this.members.get(v.accountId);
    if (!m) this.members.set(v.accountId, (m = yield* nested(this.repo.readAccountMembers(v.accountId))));
    const inbox = userVerdict(e, v, m.get(v.userId) ?? null);
    if (typeof inbox === "number" && !this.inboxes.has(inbox))
      this.inboxes.set(inbox, yield* nested(this.repo.readInboxMemberIds(inbox)));
  }
}

/** The conversation push data an event carries (conversation kinds: the payload; message and typing kinds: its `conversation`). */
export function conversationOfEvent(e: StoredEvent): Record<string, unknown> | null {
  const p = e.payload;
  if (e.kind.startsWith("message_") || TYPING_KINDS.has(e.kind))
    return (p.conversation as Record<string, unknown> | undefined) ?? null;
  return p;
}

function contactInboxIdOf(e: StoredEvent): number | null {
  const ci = conversationOfEvent(e)?.contact_inbox as { id?: unknown } | undefined;
  return typeof ci?.id === "number" ? ci.id : null;
}

/** Whether the event is one the stream sends, of the viewer's account. */
function streamed(e: StoredEvent, v: Viewer): boolean {
  return REALTIME_NAMES[e.kind] !== undefined && e.accountId === v.accountId;
}

/** A user's answer for a streamed event, or the inbox whose membership decides it. */
function userVerdict(e: StoredEvent, v: Viewer & { kind: "user" }, member: AccountMember | null): boolean | number {
  if (!member) return false;
  if (CONTACT_KINDS.has(e.kind)) return true;
  // The typist does not hear their own typing.
  if (TYPING_KINDS.has(e.kind) && e.actor.type === "user" && e.actor.id === v.userId) return false;
  if (member.role === "administrator") return true;
  return e.inboxId ?? false;
}

export function visible(e: StoredEvent, v: Viewer, audience: Audience): boolean {
  if (!streamed(e, v)) return false;
  if (v.kind === "user") {
    const verdict = userVerdict(e, v, audience.member(v.accountId, v.userId));
    return typeof verdict === "boolean" ? verdict : audience.inboxMember(verdict, v.userId);
  }
  if (e.private || e.contactId !== v.contactId) return false;
  if (TYPING_KINDS.has(e.kind)) {
    if (e.actor.type === "contact") return false;
  } else if (!CONTACT_VISIBLE.has(e.kind)) return false;
  if (e.kind.startsWith("message_") && e.payload.message_type === "activity") return false;
  return v.hmacVerified || contactInboxIdOf(e) === v.contactInboxId;
}

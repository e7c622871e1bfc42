// Who may reach which conversation. Administrators (and automation, contacts, the system) reach
// every inbox of the account; agents only the inboxes they are members of. A record of another
// account is 404; a conversation or inbox of this account that an agent may not use is 403
// (docs/compatibility.md #2: Chatwoot's policy refusals, which it answers 401, become 403).
import type { ConversationRefsRepo, InboxRef } from "../db/conversation-refs.repo.ts";
import type { ConversationRow, ConversationsRepo } from "../db/conversations.repo.ts";
import { nested, type Reads, readNow } from "../db/reads.ts";
import { isAgent, type Acting } from "./acting.ts";
import { parseId } from "./auth.service.ts";
import { ForbiddenError, NotFoundError } from "./errors.ts";

const NOT_INBOX_MEMBER = "You are not a member of this inbox";

export class ConversationAccess {
  constructor(private readonly d: { conversations: ConversationsRepo; conversationRefs: ConversationRefsRepo }) {}

  /** A conversation by display id (the path's id), or 404/403. */
  conversation(a: Acting, rawDisplayId: unknown): ConversationRow {
    return readNow(this.readConversation(a, rawDisplayId));
  }

  /** The same as a Reads, for read-only endpoints that await it on PostgreSQL (src/db/reads.ts). */
  *readConversation(a: Acting, rawDisplayId: unknown): Reads<ConversationRow> {
    const displayId = parseId(rawDisplayId);
    const row =
      displayId === null ? null : yield* nested(this.d.conversations.readByDisplayId(a.account.id, displayId));
    if (!row)
      throw new NotFoundError(
        "Conversation",
        "conversation_id",
        `no conversation ${String(rawDisplayId)} in this account`,
      );
    if (!(yield* nested(this.readMayUseInbox(a, row.inbox_id))))
      throw new ForbiddenError("You are not a member of this conversation's inbox");
    return row;
  }

  /**
   * An inbox of this account the actor may use, or 404/403 (field `inbox_id`). In place, as plain
   * statement calls: write paths (a new contact's or conversation's inbox) run no generator.
   */
  inbox(a: Acting, rawId: unknown): InboxRef {
    const id = parseId(rawId);
    const inbox = inboxFound(rawId, id === null ? null : this.d.conversationRefs.inbox(a.account.id, id));
    if (!this.mayUseInbox(a, inbox.id)) throw new ForbiddenError(NOT_INBOX_MEMBER);
    return inbox;
  }

  /** The same as a Reads, for read-only endpoints that await it on PostgreSQL (src/db/reads.ts). */
  *readInbox(a: Acting, rawId: unknown): Reads<InboxRef> {
    const id = parseId(rawId);
    const inbox = inboxFound(
      rawId,
      id === null ? null : yield* nested(this.d.conversationRefs.readInbox(a.account.id, id)),
    );
    if (!(yield* nested(this.readMayUseInbox(a, inbox.id)))) throw new ForbiddenError(NOT_INBOX_MEMBER);
    return inbox;
  }

  mayUseInbox(a: Acting, inboxId: number): boolean {
    if (a.botInboxIds) return a.botInboxIds.includes(inboxId);
    return !isAgent(a) || this.d.conversationRefs.isInboxMember(inboxId, a.user!.id);
  }

  private *readMayUseInbox(a: Acting, inboxId: number): Reads<boolean> {
    if (a.botInboxIds) return a.botInboxIds.includes(inboxId);
    return !isAgent(a) || (yield* nested(this.d.conversationRefs.readIsInboxMember(inboxId, a.user!.id)));
  }

  /** The inboxes an actor's lists are limited to: null = all (administrators and non-user actors). */
  visibleInboxes(a: Acting): number[] | null {
    return readNow(this.readVisibleInboxes(a));
  }

  *readVisibleInboxes(a: Acting): Reads<number[] | null> {
    if (a.botInboxIds) return [...a.botInboxIds];
    return isAgent(a) ? yield* nested(this.d.conversationRefs.readMemberInboxIds(a.account.id, a.user!.id)) : null;
  }
}

/** The inbox a request named, found in its account, or the one 404 every service answers for it. */
export function inboxFound<T extends { id: number }>(rawId: unknown, inbox: T | null): T {
  if (!inbox) throw new NotFoundError("Inbox", "inbox_id", `no inbox ${String(rawId)} in this account`);
  return inbox;
}

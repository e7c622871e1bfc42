// Reads the public (client) API needs beyond the account API's: an inbox by its public identifier,
// a contact identity's conversations, pages of the messages a contact may see (no private notes,
// no activity messages) and the agents' messages a contact has not read yet.
import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";
import type { ConversationRow } from "./conversations.repo.ts";
import type { InboxRow } from "./inboxes.repo.ts";
import { CONVERSATION, type MessageRow } from "./messages.repo.ts";

/** An API inbox with the name of its account (the public API's entry point). */
export type PublicInboxRow = InboxRow & { account_name: string };

/** What a contact sees: incoming, outgoing and template messages that are not private notes. */
const VISIBLE = "private = 0 AND message_type != 2";

export class PublicRepo {
  private readonly inboxStmt: TwoWayStatement;
  private readonly ofContactStmt: TwoWayStatement;
  private readonly ofContactInboxStmt: TwoWayStatement;
  private readonly latestStmt: TwoWayStatement;
  private readonly beforeStmt: TwoWayStatement;
  private readonly unreadStmt: TwoWayStatement;
  private readonly verifyStmt: TwoWayStatement;

  constructor(db: Database) {
    // A suspended account's inboxes are as unknown as a wrong identifier.
    this.inboxStmt = new TwoWayStatement(
      db,
      // The account by rowid in scalar subqueries rather than a join, whose plan would follow the statistics.
      `SELECT i.*, (SELECT name FROM accounts WHERE id = i.account_id) AS account_name FROM inboxes i
       WHERE i.identifier = $identifier AND i.channel_type = 'api' AND (SELECT status FROM accounts WHERE id = i.account_id) = 'active'`,
    );
    this.ofContactStmt = new TwoWayStatement(
      db,
      "SELECT * FROM conversations WHERE contact_id = $id ORDER BY last_activity_at DESC, id DESC LIMIT $limit",
    );
    this.ofContactInboxStmt = new TwoWayStatement(
      db,
      "SELECT * FROM conversations WHERE contact_inbox_id = $id ORDER BY last_activity_at DESC, id DESC LIMIT $limit",
    );
    // Newest first with a LIMIT walks the (conversation_id, id) index backwards; callers reverse.
    // The conversation as a one-value range, ordered by both columns: PostgreSQL otherwise walks the
    // primary key (src/db/messages.repo.ts says why).
    this.latestStmt = new TwoWayStatement(
      db,
      `SELECT * FROM messages INDEXED BY messages_conversation WHERE ${CONVERSATION("$c")} AND ${VISIBLE} ORDER BY conversation_id DESC, id DESC LIMIT $limit`,
    );
    this.beforeStmt = new TwoWayStatement(
      db,
      `SELECT * FROM messages WHERE conversation_id = $c AND id < $before AND ${VISIBLE} ORDER BY id DESC LIMIT $limit`,
    );
    // Only messages since the contact last looked can still be unread: a range of the
    // (conversation_id, created_at, message_type) index, not the whole conversation.
    this.unreadStmt = new TwoWayStatement(
      db,
      `SELECT * FROM messages WHERE conversation_id = $c AND created_at >= $since AND created_at <= $until
         AND message_type IN (1, 3) AND private = 0 AND status IN ('sent', 'delivered') ORDER BY id`,
    );
    this.verifyStmt = new TwoWayStatement(
      db,
      "UPDATE contact_inboxes SET hmac_verified = 1, updated_at = $now WHERE id = $id",
    );
  }

  inboxByIdentifier(identifier: string): PublicInboxRow | null {
    return (this.inboxStmt.statement.get({ identifier }) as PublicInboxRow | null) ?? null;
  }

  /** The conversations of one contact identity, newest activity first. */
  conversationsOfContactInbox(contactInboxId: number, limit: number): ConversationRow[] {
    return this.ofContactInboxStmt.statement.all({ id: contactInboxId, limit }) as ConversationRow[];
  }

  /** The newest visible messages, ascending. */
  latestVisible(conversationId: number, limit: number): MessageRow[] {
    return (this.latestStmt.statement.all({ c: conversationId, limit }) as MessageRow[]).reverse();
  }

  /** The visible messages just before a message id, ascending. */
  visibleBefore(conversationId: number, before: number, limit: number): MessageRow[] {
    return (this.beforeStmt.statement.all({ c: conversationId, before, limit }) as MessageRow[]).reverse();
  }

  /** Whether the Reads below are awaited (PostgreSQL); on SQLite the in-place forms above are quicker. */
  get pooled(): boolean {
    return this.inboxStmt.pooled;
  }

  /** The same reads as steps of a read-only route's Reads (awaited on PostgreSQL: src/db/reads.ts). */
  *readInboxByIdentifier(identifier: string): Reads<PublicInboxRow | null> {
    return (yield this.inboxStmt.get({ identifier })) as PublicInboxRow | null;
  }

  /**
   * A verified identity's conversations are its contact's (in every inbox); an unverified one's, its
   * own. Newest activity first.
   */
  *readConversationsOf(
    by: { contactId: number } | { contactInboxId: number },
    limit: number,
  ): Reads<ConversationRow[]> {
    const read =
      "contactId" in by
        ? this.ofContactStmt.all({ id: by.contactId, limit })
        : this.ofContactInboxStmt.all({ id: by.contactInboxId, limit });
    return (yield read) as ConversationRow[];
  }

  /** latestVisible (no `before`) or visibleBefore, ascending. */
  *readVisible(conversationId: number, before: number | null, limit: number): Reads<MessageRow[]> {
    const read =
      before === null
        ? this.latestStmt.all({ c: conversationId, limit })
        : this.beforeStmt.all({ c: conversationId, before, limit });
    return ((yield read) as MessageRow[]).reverse();
  }

  /** Public outgoing and template messages created in [since, until] that are not read yet. */
  *readUnreadByContact(conversationId: number, since: number, until: number): Reads<MessageRow[]> {
    return (yield this.unreadStmt.all({ c: conversationId, since, until })) as MessageRow[];
  }

  *markVerifiedSteps(contactInboxId: number, now: number): Reads<void> {
    yield this.verifyStmt.write({ id: contactInboxId, now });
  }
}

// Reads the website chat needs beyond the public API's: a web_widget inbox by its website_token
// (the index on json_extract(channel_attributes, '$.website_token') answers it).
import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";
import type { ConversationRow } from "./conversations.repo.ts";
import type { PublicInboxRow } from "./public.repo.ts";

export class WidgetRepo {
  private readonly byTokenStmt: TwoWayStatement;
  private readonly pageStmt: TwoWayStatement;
  private readonly unreadStmt: TwoWayStatement;

  constructor(db: Database) {
    // A suspended account's inboxes are as unknown as a wrong token.
    this.byTokenStmt = new TwoWayStatement(
      db,
      `SELECT i.*, a.name AS account_name FROM inboxes i JOIN accounts a ON a.id = i.account_id
       WHERE json_extract(i.channel_attributes, '$.website_token') = $token AND i.channel_type = 'web_widget' AND a.status = 'active'`,
    );
    this.pageStmt = new TwoWayStatement(
      db,
      "SELECT * FROM conversations WHERE contact_inbox_id = $id ORDER BY last_activity_at DESC, id DESC LIMIT $limit OFFSET $offset",
    );
    // Agents' public messages the visitor has not seen (created after contact_last_seen_at).
    this.unreadStmt = new TwoWayStatement(
      db,
      `SELECT count(*) AS n FROM messages WHERE conversation_id = $c AND created_at > $since AND message_type IN (1, 3) AND private = 0`,
    );
  }

  /** One page of a visitor identity's conversations, newest activity first. */
  *readConversationsPage(contactInboxId: number, limit: number, offset: number): Reads<ConversationRow[]> {
    return (yield this.pageStmt.all({ id: contactInboxId, limit, offset })) as ConversationRow[];
  }

  *readUnreadCount(conversationId: number, since: number): Reads<number> {
    return ((yield this.unreadStmt.get({ c: conversationId, since })) as { n: number }).n;
  }

  inboxByWebsiteToken(token: string): PublicInboxRow | null {
    return (this.byTokenStmt.statement.get({ token }) as PublicInboxRow | null) ?? null;
  }

  /** inboxByWebsiteToken() as a step of a Reads (awaited on PostgreSQL: src/db/reads.ts). */
  *readInboxByWebsiteToken(token: string): Reads<PublicInboxRow | null> {
    return (yield this.byTokenStmt.get({ token })) as PublicInboxRow | null;
  }
}

// Reads the website chat needs beyond the public API's: a web_widget inbox by its website_token
// (the index on json_extract(channel_attributes, '$.website_token') answers it).
import type { Database, Statement } from "bun:sqlite";
import type { PublicInboxRow } from "./public.repo.ts";

export class WidgetRepo {
  private readonly byTokenStmt: Statement;

  constructor(db: Database) {
    // A suspended account's inboxes are as unknown as a wrong token.
    this.byTokenStmt = db.prepare(
      `SELECT i.*, a.name AS account_name FROM inboxes i JOIN accounts a ON a.id = i.account_id
       WHERE json_extract(i.channel_attributes, '$.website_token') = $token AND i.channel_type = 'web_widget' AND a.status = 'active'`,
    );
  }

  inboxByWebsiteToken(token: string): PublicInboxRow | null {
    return (this.byTokenStmt.get({ token }) as PublicInboxRow | null) ?? null;
  }
}

// What `parley seed` reads back after bulk-loading, to print the ids and addresses the benchmark
// scenarios need (src/cli/seed.ts).
import type { Database } from "bun:sqlite";

export interface SeededConversation {
  id: number;
  display_id: number;
  contact_id: number;
  contact_inbox_id: number;
}

export function firstConversation(db: Database, accountId: number): SeededConversation | null {
  return (
    (db
      .query(
        "SELECT id, display_id, contact_id, contact_inbox_id FROM conversations WHERE account_id = ? ORDER BY id LIMIT 1",
      )
      .get(accountId) as SeededConversation | null) ?? null
  );
}

export function maxMessageId(db: Database): number {
  return (db.query("SELECT COALESCE(MAX(id), 0) AS id FROM messages").get() as { id: number }).id;
}

/** The lowest and highest message id of a conversation above `after`. */
export function messageIdRange(db: Database, conversationId: number, after: number): { lo: number; hi: number } {
  return db
    .query("SELECT MIN(id) AS lo, MAX(id) AS hi FROM messages WHERE conversation_id = ? AND id > ?")
    .get(conversationId, after) as { lo: number; hi: number };
}

export function contactInboxSourceId(db: Database, contactInboxId: number): string | null {
  return (
    (db.query("SELECT source_id FROM contact_inboxes WHERE id = ?").get(contactInboxId) as { source_id: string } | null)
      ?.source_id ?? null
  );
}

/** (contact identifier, conversation display id) pairs for public-API writes, other than `except`. */
export function publicTargets(db: Database, accountId: number, except: number, limit: number): [string, number][] {
  return (
    db
      .query(
        `SELECT ci.source_id, c.display_id FROM conversations c JOIN contact_inboxes ci ON ci.id = c.contact_inbox_id
         WHERE c.account_id = ? AND c.id <> ? ORDER BY c.id LIMIT ?`,
      )
      .all(accountId, except, limit) as { source_id: string; display_id: number }[]
  ).map((r) => [r.source_id, r.display_id]);
}

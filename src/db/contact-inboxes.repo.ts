import type { Database, Statement } from "bun:sqlite";

export interface ContactInboxRow {
  id: number;
  contact_id: number;
  inbox_id: number;
  source_id: string;
  pubsub_token: string;
  hmac_verified: number;
  created_at: number;
  updated_at: number;
}

export class ContactInboxesRepo {
  private readonly insertStmt: Statement;
  private readonly byIdStmt: Statement;
  private readonly byIdsStmt: Statement;
  private readonly bySourceStmt: Statement;
  private readonly ofContactsStmt: Statement;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO contact_inboxes (contact_id, inbox_id, source_id, pubsub_token, hmac_verified, created_at, updated_at)
       VALUES ($contact_id, $inbox_id, $source_id, $pubsub_token, $hmac_verified, $now, $now)`,
    );
    this.byIdStmt = db.prepare("SELECT * FROM contact_inboxes WHERE id = $id");
    this.byIdsStmt = db.prepare("SELECT * FROM contact_inboxes WHERE id IN (SELECT value FROM json_each($ids))");
    this.bySourceStmt = db.prepare("SELECT * FROM contact_inboxes WHERE inbox_id = $inbox_id AND source_id = $source_id");
    this.ofContactsStmt = db.prepare(
      "SELECT * FROM contact_inboxes WHERE contact_id IN (SELECT value FROM json_each($ids)) ORDER BY contact_id, id",
    );
  }

  insert(c: { contact_id: number; inbox_id: number; source_id: string; pubsub_token: string; hmac_verified: number; now: number }): number {
    return Number(this.insertStmt.run(c).lastInsertRowid);
  }

  byId(id: number): ContactInboxRow | null {
    return (this.byIdStmt.get({ id }) as ContactInboxRow | null) ?? null;
  }

  byIds(ids: readonly number[]): Map<number, ContactInboxRow> {
    const map = new Map<number, ContactInboxRow>();
    if (ids.length === 0) return map;
    for (const row of this.byIdsStmt.all({ ids: JSON.stringify([...new Set(ids)]) }) as ContactInboxRow[]) map.set(row.id, row);
    return map;
  }

  bySource(inboxId: number, sourceId: string): ContactInboxRow | null {
    return (this.bySourceStmt.get({ inbox_id: inboxId, source_id: sourceId }) as ContactInboxRow | null) ?? null;
  }

  /** Every contact_inbox of these contacts, grouped by contact, oldest first. */
  ofContacts(contactIds: readonly number[]): Map<number, ContactInboxRow[]> {
    const map = new Map<number, ContactInboxRow[]>();
    if (contactIds.length === 0) return map;
    for (const row of this.ofContactsStmt.all({ ids: JSON.stringify([...new Set(contactIds)]) }) as ContactInboxRow[]) {
      const list = map.get(row.contact_id);
      if (list) list.push(row);
      else map.set(row.contact_id, [row]);
    }
    return map;
  }
}

import type { Database } from "bun:sqlite";
import { Batch } from "./batch.ts";
import { type Reads, TwoWayStatement } from "./reads.ts";

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

export type NewContactInbox = {
  contact_id: number;
  inbox_id: number;
  source_id: string;
  pubsub_token: string;
  hmac_verified: number;
  now: number;
};

export class ContactInboxesRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly byIdsBatch: Batch<ContactInboxRow>;
  private readonly bySourceStmt: TwoWayStatement;
  private readonly ofContactsBatch: Batch<ContactInboxRow>;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO contact_inboxes (contact_id, inbox_id, source_id, pubsub_token, hmac_verified, created_at, updated_at)
       VALUES ($contact_id, $inbox_id, $source_id, $pubsub_token, $hmac_verified, $now, $now)`,
    );
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM contact_inboxes WHERE id = $id");
    this.byIdsBatch = new Batch<ContactInboxRow>(db, "SELECT * FROM contact_inboxes WHERE id IN {ids}", "id");
    this.bySourceStmt = new TwoWayStatement(
      db,
      "SELECT * FROM contact_inboxes WHERE inbox_id = $inbox_id AND source_id = $source_id",
    );
    this.ofContactsBatch = new Batch<ContactInboxRow>(
      db,
      "SELECT * FROM contact_inboxes WHERE contact_id IN {ids} ORDER BY contact_id, id",
      "contact_id",
    );
  }

  *insertSteps(c: NewContactInbox): Reads<number> {
    return yield* this.insertStmt.insertSteps(c);
  }

  byId(id: number): ContactInboxRow | null {
    return (this.byIdStmt.statement.get({ id }) as ContactInboxRow | null) ?? null;
  }

  *readById(id: number): Reads<ContactInboxRow | null> {
    return (yield this.byIdStmt.get({ id })) as ContactInboxRow | null;
  }

  byIds(ids: readonly number[]): Map<number, ContactInboxRow> {
    return this.byIdsBatch.map(ids);
  }

  readByIds(ids: readonly number[]): Reads<Map<number, ContactInboxRow>> {
    return this.byIdsBatch.readMap(ids);
  }

  bySource(inboxId: number, sourceId: string): ContactInboxRow | null {
    const row = this.bySourceStmt.statement.get({ inbox_id: inboxId, source_id: sourceId });
    return (row as ContactInboxRow | null) ?? null;
  }

  *readBySource(inboxId: number, sourceId: string): Reads<ContactInboxRow | null> {
    return (yield this.bySourceStmt.get({ inbox_id: inboxId, source_id: sourceId })) as ContactInboxRow | null;
  }

  /** Every contact_inbox of these contacts, grouped by contact, oldest first. */
  ofContacts(contactIds: readonly number[]): Map<number, ContactInboxRow[]> {
    return this.ofContactsBatch.group(contactIds);
  }

  readOfContacts(contactIds: readonly number[]): Reads<Map<number, ContactInboxRow[]>> {
    return this.ofContactsBatch.readGroup(contactIds);
  }
}

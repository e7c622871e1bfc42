import type { Database, Statement } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface ContactNoteRow {
  id: number;
  account_id: number;
  contact_id: number;
  user_id: number | null;
  content: string;
  created_at: number;
  updated_at: number;
}

export class ContactNotesRepo {
  private readonly insertStmt: Statement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly ofContactStmt: TwoWayStatement;
  private readonly updateStmt: Statement;
  private readonly deleteStmt: Statement;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO contact_notes (account_id, contact_id, user_id, content, created_at, updated_at)
       VALUES ($account_id, $contact_id, $user_id, $content, $now, $now)`,
    );
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM contact_notes WHERE contact_id = $contact_id AND id = $id");
    this.ofContactStmt = new TwoWayStatement(
      db,
      "SELECT * FROM contact_notes WHERE contact_id = $contact_id ORDER BY id DESC",
    );
    this.updateStmt = db.prepare("UPDATE contact_notes SET content = $content, updated_at = $now WHERE id = $id");
    this.deleteStmt = db.prepare("DELETE FROM contact_notes WHERE id = $id");
  }

  insert(accountId: number, contactId: number, userId: number | null, content: string, now: number): number {
    return Number(
      this.insertStmt.run({ account_id: accountId, contact_id: contactId, user_id: userId, content, now })
        .lastInsertRowid,
    );
  }

  /** A note of this contact (the contact is already scoped to the account). */
  byId(contactId: number, id: number): ContactNoteRow | null {
    return (this.byIdStmt.statement.get({ contact_id: contactId, id }) as ContactNoteRow | null) ?? null;
  }

  *readById(contactId: number, id: number): Reads<ContactNoteRow | null> {
    return (yield this.byIdStmt.get({ contact_id: contactId, id })) as ContactNoteRow | null;
  }

  /** Newest first (Chatwoot's order). */
  *readOfContact(contactId: number): Reads<ContactNoteRow[]> {
    return (yield this.ofContactStmt.all({ contact_id: contactId })) as ContactNoteRow[];
  }

  update(id: number, content: string, now: number): void {
    this.updateStmt.run({ id, content, now });
  }

  delete(id: number): void {
    this.deleteStmt.run({ id });
  }
}

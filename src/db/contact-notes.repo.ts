import type { Database } from "bun:sqlite";
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
  private readonly insertStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly ofContactStmt: TwoWayStatement;
  private readonly updateStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO contact_notes (account_id, contact_id, user_id, content, created_at, updated_at)
       VALUES ($account_id, $contact_id, $user_id, $content, $now, $now)`,
    );
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM contact_notes WHERE contact_id = $contact_id AND id = $id");
    this.ofContactStmt = new TwoWayStatement(
      db,
      "SELECT * FROM contact_notes WHERE contact_id = $contact_id ORDER BY id DESC",
    );
    this.updateStmt = new TwoWayStatement(
      db,
      "UPDATE contact_notes SET content = $content, updated_at = $now WHERE id = $id",
    );
    this.deleteStmt = new TwoWayStatement(db, "DELETE FROM contact_notes WHERE id = $id");
  }

  *insertSteps(
    accountId: number,
    contactId: number,
    userId: number | null,
    content: string,
    now: number,
  ): Reads<number> {
    return yield* this.insertStmt.insertSteps({
      account_id: accountId,
      contact_id: contactId,
      user_id: userId,
      content,
      now,
    });
  }

  *readById(contactId: number, id: number): Reads<ContactNoteRow | null> {
    return (yield this.byIdStmt.get({ contact_id: contactId, id })) as ContactNoteRow | null;
  }

  /** Newest first (Chatwoot's order). */
  *readOfContact(contactId: number): Reads<ContactNoteRow[]> {
    return (yield this.ofContactStmt.all({ contact_id: contactId })) as ContactNoteRow[];
  }

  *updateSteps(id: number, content: string, now: number): Reads<void> {
    yield this.updateStmt.write({ id, content, now });
  }

  *deleteSteps(id: number): Reads<void> {
    yield this.deleteStmt.write({ id });
  }
}

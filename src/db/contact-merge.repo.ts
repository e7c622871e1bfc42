// The row moves of a contact merge (domain/contact-merge.service.ts): everything hanging on the
// mergee moves to the base contact. Runs inside the caller's writeTx.
import type { Database, Statement } from "bun:sqlite";

export class ContactMergeRepo {
  private readonly moves: Statement[];

  constructor(db: Database) {
    this.moves = [
      db.prepare("UPDATE conversations SET contact_id = $base WHERE contact_id = $mergee"),
      db.prepare("UPDATE contact_inboxes SET contact_id = $base WHERE contact_id = $mergee"),
      db.prepare("UPDATE contact_notes SET contact_id = $base WHERE contact_id = $mergee"),
      // A contact's messages and survey answers live in its own conversations, which have just
      // moved: scoping by them uses the conversation indexes instead of scanning every message.
      db.prepare(
        `UPDATE messages SET sender_id = $base WHERE conversation_id IN (SELECT id FROM conversations WHERE contact_id = $base)
           AND sender_type = 'Contact' AND sender_id = $mergee`,
      ),
      db.prepare(
        `UPDATE csat_survey_responses SET contact_id = $base WHERE conversation_id IN (SELECT id FROM conversations WHERE contact_id = $base)
           AND contact_id = $mergee`,
      ),
      // Labels both carry stay once; the mergee's rows go with it.
      db.prepare(
        `INSERT OR IGNORE INTO contact_labels (contact_id, account_id, title)
         SELECT $base, account_id, title FROM contact_labels WHERE contact_id = $mergee`,
      ),
    ];
  }

  moveChildren(baseId: number, mergeeId: number): void {
    for (const stmt of this.moves) stmt.run({ base: baseId, mergee: mergeeId });
  }
}

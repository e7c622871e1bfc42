// The row moves of a contact merge (domain/contact-merge.service.ts): everything hanging on the
// mergee moves to the base contact. Steps of the caller's body.
import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export class ContactMergeRepo {
  private readonly moves: TwoWayStatement[];

  constructor(db: Database) {
    const move = (sql: string) => new TwoWayStatement(db, sql);
    this.moves = [
      move("UPDATE conversations SET contact_id = $base WHERE contact_id = $mergee"),
      move("UPDATE contact_inboxes SET contact_id = $base WHERE contact_id = $mergee"),
      move("UPDATE contact_notes SET contact_id = $base WHERE contact_id = $mergee"),
      // A contact's messages and survey answers live in its own conversations, which have just
      // moved: scoping by them uses the conversation indexes instead of scanning every message.
      move(
        `UPDATE messages SET sender_id = $base WHERE conversation_id IN (SELECT id FROM conversations WHERE contact_id = $base)
           AND sender_type = 'Contact' AND sender_id = $mergee`,
      ),
      move(
        `UPDATE csat_survey_responses SET contact_id = $base WHERE conversation_id IN (SELECT id FROM conversations WHERE contact_id = $base)
           AND contact_id = $mergee`,
      ),
      // Labels both carry stay once; the mergee's rows go with it.
      move(
        `INSERT OR IGNORE INTO contact_labels (contact_id, account_id, title)
         SELECT $base, account_id, title FROM contact_labels WHERE contact_id = $mergee`,
      ),
    ];
  }

  *moveChildrenSteps(baseId: number, mergeeId: number): Reads<void> {
    for (const stmt of this.moves) yield stmt.write({ base: baseId, mergee: mergeeId });
  }
}

// Every contact of an account, oldest first, for the CSV export: read in id-ordered batches so a
// large account is never held in memory at once.
import type { Database, Statement } from "bun:sqlite";
import type { ContactRow } from "./contacts.repo.ts";

const BATCH = 1000;

export class ContactsExportRepo {
  private readonly batchStmt: Statement;

  constructor(db: Database) {
    this.batchStmt = db.prepare(
      "SELECT * FROM contacts WHERE account_id = $account_id AND id > $after ORDER BY id LIMIT $limit",
    );
  }

  *all(accountId: number): Generator<ContactRow> {
    let after = 0;
    for (;;) {
      const rows = this.batchStmt.all({ account_id: accountId, after, limit: BATCH }) as ContactRow[];
      yield* rows;
      if (rows.length < BATCH) return;
      after = rows[rows.length - 1]!.id;
    }
  }
}

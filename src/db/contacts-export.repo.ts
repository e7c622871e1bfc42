// Every contact of an account, oldest first, for the CSV export: read in id-ordered batches so a
// large account is never held in memory at once, each awaited (on PostgreSQL's read pool: a large
// export does not hold the process).
import type { Database } from "bun:sqlite";
import type { ContactRow } from "./contacts.repo.ts";
import { type Reads, TwoWayStatement } from "./reads.ts";

export const EXPORT_BATCH = 1000;

export class ContactsExportRepo {
  private readonly batchStmt: TwoWayStatement;

  constructor(db: Database) {
    this.batchStmt = new TwoWayStatement(
      db,
      "SELECT * FROM contacts WHERE account_id = $account_id AND id > $after ORDER BY id LIMIT $limit",
    );
  }

  /** The next EXPORT_BATCH contacts after id `after` (fewer: the last batch). */
  *readBatch(accountId: number, after: number): Reads<ContactRow[]> {
    return (yield this.batchStmt.all({ account_id: accountId, after, limit: EXPORT_BATCH })) as ContactRow[];
  }
}

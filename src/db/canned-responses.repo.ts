// The account's canned responses (migration 015).
import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface CannedResponseRow {
  id: number;
  account_id: number;
  short_code: string;
  content: string;
  created_at: number;
  updated_at: number;
}

/** At most this many answers to one list or search: a picker shows a few, a settings page all. */
export const CANNED_RESPONSES_MAX = 1000;

export class CannedResponsesRepo {
  private readonly listStmt: TwoWayStatement;
  private readonly searchStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly byCodeStmt: TwoWayStatement;
  private readonly insertStmt: TwoWayStatement;
  private readonly updateStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;

  constructor(db: Database) {
    this.listStmt = new TwoWayStatement(
      db,
      `SELECT * FROM canned_responses WHERE account_id = $account_id ORDER BY lower(short_code), id LIMIT ${CANNED_RESPONSES_MAX}`,
    );
    // Chatwoot's search: the text anywhere in the short code or the content, short codes that start
    // with it first. instr() on lower-cased text: no LIKE wildcards to escape.
    this.searchStmt = new TwoWayStatement(
      db,
      `SELECT * FROM canned_responses WHERE account_id = $account_id AND (instr(lower(short_code), $q) > 0 OR instr(lower(content), $q) > 0)
       ORDER BY instr(lower(short_code), $q) <> 1, lower(short_code), id LIMIT ${CANNED_RESPONSES_MAX}`,
    );
    this.byIdStmt = new TwoWayStatement(
      db,
      "SELECT * FROM canned_responses WHERE account_id = $account_id AND id = $id",
    );
    this.byCodeStmt = new TwoWayStatement(
      db,
      "SELECT id FROM canned_responses WHERE account_id = $account_id AND lower(short_code) = lower($code)",
    );
    this.insertStmt = new TwoWayStatement(
      db,
      "INSERT INTO canned_responses (account_id, short_code, content, created_at, updated_at) VALUES ($account_id, $short_code, $content, $now, $now)",
    );
    this.updateStmt = new TwoWayStatement(
      db,
      "UPDATE canned_responses SET short_code = $short_code, content = $content, updated_at = $now WHERE id = $id",
    );
    this.deleteStmt = new TwoWayStatement(db, "DELETE FROM canned_responses WHERE id = $id");
  }

  *readList(accountId: number, search: string | null): Reads<CannedResponseRow[]> {
    if (search === null) return (yield this.listStmt.all({ account_id: accountId })) as CannedResponseRow[];
    return (yield this.searchStmt.all({ account_id: accountId, q: search.toLowerCase() })) as CannedResponseRow[];
  }

  *readById(accountId: number, id: number): Reads<CannedResponseRow | null> {
    return (yield this.byIdStmt.get({ account_id: accountId, id })) as CannedResponseRow | null;
  }

  /** The id holding this short code (any case), if any. */
  *readHolderOf(accountId: number, code: string): Reads<number | null> {
    return ((yield this.byCodeStmt.get({ account_id: accountId, code })) as { id: number } | null)?.id ?? null;
  }

  *insertSteps(accountId: number, shortCode: string, content: string, now: number): Reads<number> {
    return yield* this.insertStmt.insertSteps({ account_id: accountId, short_code: shortCode, content, now });
  }

  *updateSteps(id: number, shortCode: string, content: string, now: number): Reads<void> {
    yield this.updateStmt.write({ id, short_code: shortCode, content, now });
  }

  *deleteSteps(id: number): Reads<void> {
    yield this.deleteStmt.write({ id });
  }
}

// The account's canned responses (migration 015).
import type { Database, Statement } from "bun:sqlite";
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
  private readonly byIdStmt: Statement;
  private readonly byCodeStmt: Statement;
  private readonly insertStmt: Statement;
  private readonly updateStmt: Statement;
  private readonly deleteStmt: Statement;

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
    this.byIdStmt = db.prepare("SELECT * FROM canned_responses WHERE account_id = $account_id AND id = $id");
    this.byCodeStmt = db.prepare(
      "SELECT id FROM canned_responses WHERE account_id = $account_id AND lower(short_code) = lower($code)",
    );
    this.insertStmt = db.prepare(
      "INSERT INTO canned_responses (account_id, short_code, content, created_at, updated_at) VALUES ($account_id, $short_code, $content, $now, $now)",
    );
    this.updateStmt = db.prepare(
      "UPDATE canned_responses SET short_code = $short_code, content = $content, updated_at = $now WHERE id = $id",
    );
    this.deleteStmt = db.prepare("DELETE FROM canned_responses WHERE id = $id");
  }

  *readList(accountId: number, search: string | null): Reads<CannedResponseRow[]> {
    if (search === null) return (yield this.listStmt.all({ account_id: accountId })) as CannedResponseRow[];
    return (yield this.searchStmt.all({ account_id: accountId, q: search.toLowerCase() })) as CannedResponseRow[];
  }

  byId(accountId: number, id: number): CannedResponseRow | null {
    return (this.byIdStmt.get({ account_id: accountId, id }) as CannedResponseRow | null) ?? null;
  }

  /** The id holding this short code (any case), if any. */
  holderOf(accountId: number, code: string): number | null {
    return (this.byCodeStmt.get({ account_id: accountId, code }) as { id: number } | null)?.id ?? null;
  }

  insert(accountId: number, shortCode: string, content: string, now: number): number {
    return Number(this.insertStmt.run({ account_id: accountId, short_code: shortCode, content, now }).lastInsertRowid);
  }

  update(id: number, shortCode: string, content: string, now: number): void {
    this.updateStmt.run({ id, short_code: shortCode, content, now });
  }

  delete(id: number): void {
    this.deleteStmt.run({ id });
  }
}

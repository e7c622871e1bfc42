// The account's macros (migration 025).
import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface MacroRow {
  id: number;
  account_id: number;
  name: string;
  visibility: "personal" | "global";
  created_by_id: number | null;
  updated_by_id: number | null;
  /** JSON: [{action_name, action_params}]. */
  actions: string;
  created_at: number;
  updated_at: number;
}

export interface MacroFields {
  name: string;
  visibility: MacroRow["visibility"];
  actions: string;
}

/** The most macros one account keeps: a list answer stays small whatever is stored. */
export const MACROS_MAX = 500;

export class MacrosRepo {
  private readonly listStmt: TwoWayStatement;
  private readonly countStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly insertStmt: TwoWayStatement;
  private readonly updateStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;

  constructor(db: Database) {
    // Every macro of the account, or (an agent's list) the global ones and the agent's own.
    this.listStmt = new TwoWayStatement(
      db,
      `SELECT * FROM macros WHERE account_id = $account_id
         AND (CAST($user_id AS BIGINT) IS NULL OR visibility = 'global' OR created_by_id = $user_id)
       ORDER BY id LIMIT ${MACROS_MAX}`,
    );
    this.countStmt = new TwoWayStatement(db, "SELECT count(*) AS n FROM macros WHERE account_id = $account_id");
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM macros WHERE account_id = $account_id AND id = $id");
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO macros (account_id, name, visibility, created_by_id, updated_by_id, actions, created_at, updated_at)
       VALUES ($account_id, $name, $visibility, $user_id, $user_id, $actions, $now, $now)`,
    );
    this.updateStmt = new TwoWayStatement(
      db,
      `UPDATE macros SET name = $name, visibility = $visibility, actions = $actions, updated_by_id = $user_id,
         updated_at = $now WHERE id = $id`,
    );
    this.deleteStmt = new TwoWayStatement(db, "DELETE FROM macros WHERE id = $id");
  }

  /** `visibleTo`: null for every macro of the account, else a user's (global and their own). */
  *readList(accountId: number, visibleTo: number | null): Reads<MacroRow[]> {
    return (yield this.listStmt.all({ account_id: accountId, user_id: visibleTo })) as MacroRow[];
  }

  *readCount(accountId: number): Reads<number> {
    return ((yield this.countStmt.get({ account_id: accountId })) as { n: number }).n;
  }

  byId(accountId: number, id: number): MacroRow | null {
    return (this.byIdStmt.statement.get({ account_id: accountId, id }) as MacroRow | null) ?? null;
  }

  *readById(accountId: number, id: number): Reads<MacroRow | null> {
    return (yield this.byIdStmt.get({ account_id: accountId, id })) as MacroRow | null;
  }

  *insertSteps(accountId: number, userId: number, f: MacroFields, now: number): Reads<number> {
    return yield* this.insertStmt.insertSteps({ account_id: accountId, user_id: userId, ...f, now });
  }

  *updateSteps(id: number, userId: number, f: MacroFields, now: number): Reads<void> {
    yield this.updateStmt.write({ id, user_id: userId, ...f, now });
  }

  *deleteSteps(id: number): Reads<void> {
    yield this.deleteStmt.write({ id });
  }
}

import type { Database, Statement } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export type CustomFilterType = "conversation" | "contact" | "report";

export interface CustomFilterRow {
  id: number;
  account_id: number;
  user_id: number;
  name: string;
  filter_type: CustomFilterType;
  query: string;
  created_at: number;
  updated_at: number;
}

export class CustomFiltersRepo {
  private readonly insertStmt: Statement;
  private readonly byIdStmt: Statement;
  private readonly listStmt: TwoWayStatement;
  private readonly countStmt: Statement;
  private readonly updateStmt: Statement;
  private readonly deleteStmt: Statement;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO custom_filters (account_id, user_id, name, filter_type, query, created_at, updated_at)
       VALUES ($account_id, $user_id, $name, $filter_type, $query, $now, $now)`,
    );
    this.byIdStmt = db.prepare(
      "SELECT * FROM custom_filters WHERE account_id = $account_id AND user_id = $user_id AND id = $id",
    );
    this.listStmt = new TwoWayStatement(
      db,
      "SELECT * FROM custom_filters WHERE account_id = $account_id AND user_id = $user_id AND filter_type = $filter_type ORDER BY id",
    );
    this.countStmt = db.prepare(
      "SELECT COUNT(*) AS n FROM custom_filters WHERE account_id = $account_id AND user_id = $user_id",
    );
    this.updateStmt = db.prepare(
      "UPDATE custom_filters SET name = $name, filter_type = $filter_type, query = $query, updated_at = $now WHERE id = $id",
    );
    this.deleteStmt = db.prepare("DELETE FROM custom_filters WHERE id = $id");
  }

  insert(
    accountId: number,
    userId: number,
    f: Pick<CustomFilterRow, "name" | "filter_type" | "query">,
    now: number,
  ): number {
    return Number(this.insertStmt.run({ account_id: accountId, user_id: userId, ...f, now }).lastInsertRowid);
  }

  /** One of this user's filters in this account; anyone else's is not found. */
  byId(accountId: number, userId: number, id: number): CustomFilterRow | null {
    return (this.byIdStmt.get({ account_id: accountId, user_id: userId, id }) as CustomFilterRow | null) ?? null;
  }

  *readList(accountId: number, userId: number, filterType: CustomFilterType): Reads<CustomFilterRow[]> {
    return (yield this.listStmt.all({
      account_id: accountId,
      user_id: userId,
      filter_type: filterType,
    })) as CustomFilterRow[];
  }

  count(accountId: number, userId: number): number {
    return (this.countStmt.get({ account_id: accountId, user_id: userId }) as { n: number }).n;
  }

  update(id: number, f: Pick<CustomFilterRow, "name" | "filter_type" | "query">, now: number): void {
    this.updateStmt.run({ id, ...f, now });
  }

  delete(id: number): void {
    this.deleteStmt.run({ id });
  }
}

import type { Database } from "bun:sqlite";
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
  private readonly insertStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly listStmt: TwoWayStatement;
  private readonly countStmt: TwoWayStatement;
  private readonly updateStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO custom_filters (account_id, user_id, name, filter_type, query, created_at, updated_at)
       VALUES ($account_id, $user_id, $name, $filter_type, $query, $now, $now)`,
    );
    this.byIdStmt = new TwoWayStatement(
      db,
      "SELECT * FROM custom_filters WHERE account_id = $account_id AND user_id = $user_id AND id = $id",
    );
    this.listStmt = new TwoWayStatement(
      db,
      "SELECT * FROM custom_filters WHERE account_id = $account_id AND user_id = $user_id AND filter_type = $filter_type ORDER BY id",
    );
    this.countStmt = new TwoWayStatement(
      db,
      "SELECT COUNT(*) AS n FROM custom_filters WHERE account_id = $account_id AND user_id = $user_id",
    );
    this.updateStmt = new TwoWayStatement(
      db,
      "UPDATE custom_filters SET name = $name, filter_type = $filter_type, query = $query, updated_at = $now WHERE id = $id",
    );
    this.deleteStmt = new TwoWayStatement(db, "DELETE FROM custom_filters WHERE id = $id");
  }

  *insertSteps(
    accountId: number,
    userId: number,
    f: Pick<CustomFilterRow, "name" | "filter_type" | "query">,
    now: number,
  ): Reads<number> {
    return yield* this.insertStmt.insertSteps({ account_id: accountId, user_id: userId, ...f, now });
  }

  /** One of this user's filters in this account; anyone else's is not found. */
  *readById(accountId: number, userId: number, id: number): Reads<CustomFilterRow | null> {
    return (yield this.byIdStmt.get({ account_id: accountId, user_id: userId, id })) as CustomFilterRow | null;
  }

  *readList(accountId: number, userId: number, filterType: CustomFilterType): Reads<CustomFilterRow[]> {
    return (yield this.listStmt.all({
      account_id: accountId,
      user_id: userId,
      filter_type: filterType,
    })) as CustomFilterRow[];
  }

  *readCount(accountId: number, userId: number): Reads<number> {
    return ((yield this.countStmt.get({ account_id: accountId, user_id: userId })) as { n: number }).n;
  }

  *updateSteps(id: number, f: Pick<CustomFilterRow, "name" | "filter_type" | "query">, now: number): Reads<void> {
    yield this.updateStmt.write({ id, ...f, now });
  }

  *deleteSteps(id: number): Reads<void> {
    yield this.deleteStmt.write({ id });
  }
}

// The account's dashboard apps (migration 024).
import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface DashboardAppRow {
  id: number;
  account_id: number;
  user_id: number | null;
  title: string;
  /** JSON: [{"type": "frame", "url": "…"}]. */
  content: string;
  show_on_sidebar: number;
  created_at: number;
  updated_at: number;
}

/** An account has a handful; the bound keeps one list answer small whatever is stored. */
export const DASHBOARD_APPS_MAX = 100;

export interface DashboardAppFields {
  title: string;
  content: string;
  show_on_sidebar: number;
}

export class DashboardAppsRepo {
  private readonly listStmt: TwoWayStatement;
  private readonly countStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly insertStmt: TwoWayStatement;
  private readonly updateStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;

  constructor(db: Database) {
    this.listStmt = new TwoWayStatement(
      db,
      `SELECT * FROM dashboard_apps WHERE account_id = $account_id ORDER BY id LIMIT ${DASHBOARD_APPS_MAX}`,
    );
    this.countStmt = new TwoWayStatement(db, "SELECT count(*) AS n FROM dashboard_apps WHERE account_id = $account_id");
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM dashboard_apps WHERE account_id = $account_id AND id = $id");
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO dashboard_apps (account_id, user_id, title, content, show_on_sidebar, created_at, updated_at)
       VALUES ($account_id, $user_id, $title, $content, $show_on_sidebar, $now, $now)`,
    );
    this.updateStmt = new TwoWayStatement(
      db,
      "UPDATE dashboard_apps SET title = $title, content = $content, show_on_sidebar = $show_on_sidebar, updated_at = $now WHERE id = $id",
    );
    this.deleteStmt = new TwoWayStatement(db, "DELETE FROM dashboard_apps WHERE id = $id");
  }

  *readList(accountId: number): Reads<DashboardAppRow[]> {
    return (yield this.listStmt.all({ account_id: accountId })) as DashboardAppRow[];
  }

  *readCount(accountId: number): Reads<number> {
    return ((yield this.countStmt.get({ account_id: accountId })) as { n: number }).n;
  }

  *readById(accountId: number, id: number): Reads<DashboardAppRow | null> {
    return (yield this.byIdStmt.get({ account_id: accountId, id })) as DashboardAppRow | null;
  }

  *insertSteps(accountId: number, userId: number, f: DashboardAppFields, now: number): Reads<number> {
    return yield* this.insertStmt.insertSteps({ account_id: accountId, user_id: userId, ...f, now });
  }

  *updateSteps(id: number, f: DashboardAppFields, now: number): Reads<void> {
    yield this.updateStmt.write({ id, ...f, now });
  }

  *deleteSteps(id: number): Reads<void> {
    yield this.deleteStmt.write({ id });
  }
}

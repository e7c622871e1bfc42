import type { Database, Statement } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";
import { MemberTable } from "./member-table.ts";

export interface TeamRow {
  id: number;
  account_id: number;
  name: string;
  description: string | null;
  allow_auto_assign: number;
  created_at: number;
  updated_at: number;
}

export type TeamFields = Pick<TeamRow, "name" | "description" | "allow_auto_assign">;

export class TeamsRepo {
  private readonly insertStmt: Statement;
  private readonly updateStmt: Statement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly byNameStmt: Statement;
  private readonly listStmt: TwoWayStatement;
  private readonly deleteStmt: Statement;
  private readonly teamIdsOfStmt: TwoWayStatement;
  /** Which users are members of which team. */
  readonly members: MemberTable;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO teams (account_id, name, description, allow_auto_assign, created_at, updated_at)
       VALUES ($account_id, $name, $description, $allow_auto_assign, $now, $now)`,
    );
    this.updateStmt = db.prepare(
      `UPDATE teams SET name = $name, description = $description, allow_auto_assign = $allow_auto_assign, updated_at = $now
       WHERE account_id = $account_id AND id = $id`,
    );
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM teams WHERE account_id = $account_id AND id = $id");
    this.byNameStmt = db.prepare("SELECT * FROM teams WHERE account_id = $account_id AND name = $name");
    this.listStmt = new TwoWayStatement(db, "SELECT * FROM teams WHERE account_id = $account_id ORDER BY name, id");
    this.deleteStmt = db.prepare("DELETE FROM teams WHERE account_id = $account_id AND id = $id");
    this.teamIdsOfStmt = new TwoWayStatement(
      db,
      `SELECT m.team_id FROM team_members m JOIN teams t ON t.id = m.team_id
       WHERE t.account_id = $account_id AND m.user_id = $user_id`,
    );
    this.members = new MemberTable(db, "team_members", "team_id");
  }

  insert(accountId: number, t: TeamFields, now: number): number {
    return Number(this.insertStmt.run({ account_id: accountId, ...t, now }).lastInsertRowid);
  }

  update(accountId: number, id: number, t: TeamFields, now: number): void {
    this.updateStmt.run({
      account_id: accountId,
      id,
      name: t.name,
      description: t.description,
      allow_auto_assign: t.allow_auto_assign,
      now,
    });
  }

  byId(accountId: number, id: number): TeamRow | null {
    return (this.byIdStmt.statement.get({ account_id: accountId, id }) as TeamRow | null) ?? null;
  }

  *readById(accountId: number, id: number): Reads<TeamRow | null> {
    return (yield this.byIdStmt.get({ account_id: accountId, id })) as TeamRow | null;
  }

  byName(accountId: number, name: string): TeamRow | null {
    return (this.byNameStmt.get({ account_id: accountId, name }) as TeamRow | null) ?? null;
  }

  list(accountId: number): TeamRow[] {
    return this.listStmt.statement.all({ account_id: accountId }) as TeamRow[];
  }

  *readList(accountId: number): Reads<TeamRow[]> {
    return (yield this.listStmt.all({ account_id: accountId })) as TeamRow[];
  }

  /** Deletes the team and its memberships; conversations keep existing with team_id NULL (their FK). */
  delete(accountId: number, id: number): void {
    this.deleteStmt.run({ account_id: accountId, id });
  }

  /** The ids of the account's teams the user belongs to. */
  teamIdsOf(accountId: number, userId: number): Set<number> {
    return new Set(
      (this.teamIdsOfStmt.statement.all({ account_id: accountId, user_id: userId }) as { team_id: number }[]).map(
        (r) => r.team_id,
      ),
    );
  }

  *readTeamIdsOf(accountId: number, userId: number): Reads<Set<number>> {
    const rows = (yield this.teamIdsOfStmt.all({ account_id: accountId, user_id: userId })) as { team_id: number }[];
    return new Set(rows.map((r) => r.team_id));
  }
}

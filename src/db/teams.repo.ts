import type { Database } from "bun:sqlite";
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
  private readonly insertStmt: TwoWayStatement;
  private readonly updateStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly byNameStmt: TwoWayStatement;
  private readonly listStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;
  private readonly teamIdsOfStmt: TwoWayStatement;
  /** Which users are members of which team. */
  readonly members: MemberTable;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO teams (account_id, name, description, allow_auto_assign, created_at, updated_at)
       VALUES ($account_id, $name, $description, $allow_auto_assign, $now, $now)`,
    );
    this.updateStmt = new TwoWayStatement(
      db,
      `UPDATE teams SET name = $name, description = $description, allow_auto_assign = $allow_auto_assign, updated_at = $now
       WHERE account_id = $account_id AND id = $id`,
    );
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM teams WHERE account_id = $account_id AND id = $id");
    this.byNameStmt = new TwoWayStatement(db, "SELECT * FROM teams WHERE account_id = $account_id AND name = $name");
    this.listStmt = new TwoWayStatement(db, "SELECT * FROM teams WHERE account_id = $account_id ORDER BY name, id");
    this.deleteStmt = new TwoWayStatement(db, "DELETE FROM teams WHERE account_id = $account_id AND id = $id");
    this.teamIdsOfStmt = new TwoWayStatement(
      db,
      `SELECT m.team_id FROM team_members m JOIN teams t ON t.id = m.team_id
       WHERE t.account_id = $account_id AND m.user_id = $user_id`,
    );
    this.members = new MemberTable(db, "team_members", "team_id");
  }

  *insertSteps(accountId: number, t: TeamFields, now: number): Reads<number> {
    return yield* this.insertStmt.insertSteps({ account_id: accountId, ...t, now });
  }

  *updateSteps(accountId: number, id: number, t: TeamFields, now: number): Reads<void> {
    yield this.updateStmt.write({
      account_id: accountId,
      id,
      name: t.name,
      description: t.description,
      allow_auto_assign: t.allow_auto_assign,
      now,
    });
  }

  *readById(accountId: number, id: number): Reads<TeamRow | null> {
    return (yield this.byIdStmt.get({ account_id: accountId, id })) as TeamRow | null;
  }

  *readByName(accountId: number, name: string): Reads<TeamRow | null> {
    return (yield this.byNameStmt.get({ account_id: accountId, name })) as TeamRow | null;
  }

  *readList(accountId: number): Reads<TeamRow[]> {
    return (yield this.listStmt.all({ account_id: accountId })) as TeamRow[];
  }

  /** Deletes the team and its memberships; conversations keep existing with team_id NULL (their FK). */
  *deleteSteps(accountId: number, id: number): Reads<void> {
    yield this.deleteStmt.write({ account_id: accountId, id });
  }

  /** The ids of the account's teams the user belongs to. */
  *readTeamIdsOf(accountId: number, userId: number): Reads<Set<number>> {
    const rows = (yield this.teamIdsOfStmt.all({ account_id: accountId, user_id: userId })) as { team_id: number }[];
    return new Set(rows.map((r) => r.team_id));
  }
}

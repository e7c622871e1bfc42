// A group's member users (inbox_members, team_members): the same statements for each table, as
// steps, so that a member change is one awaited body on PostgreSQL (src/db/tx.ts writeTx.steps).
import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export class MemberTable {
  private readonly hasStmt: TwoWayStatement;
  private readonly addStmt: TwoWayStatement;
  private readonly removeStmt: TwoWayStatement;
  private readonly idsStmt: TwoWayStatement;

  /** `table` and `groupColumn` are constants of the caller, never input. */
  constructor(db: Database, table: "inbox_members" | "team_members", groupColumn: "inbox_id" | "team_id") {
    this.hasStmt = new TwoWayStatement(
      db,
      `SELECT 1 AS yes FROM ${table} WHERE ${groupColumn} = $group_id AND user_id = $user_id`,
    );
    this.addStmt = new TwoWayStatement(
      db,
      `INSERT INTO ${table} (${groupColumn}, user_id, created_at) VALUES ($group_id, $user_id, $now) ON CONFLICT DO NOTHING`,
    );
    this.removeStmt = new TwoWayStatement(
      db,
      `DELETE FROM ${table} WHERE ${groupColumn} = $group_id AND user_id = $user_id`,
    );
    this.idsStmt = new TwoWayStatement(
      db,
      `SELECT user_id FROM ${table} WHERE ${groupColumn} = $group_id ORDER BY user_id`,
    );
  }

  has(groupId: number, userId: number): boolean {
    return this.hasStmt.statement.get({ group_id: groupId, user_id: userId }) !== null;
  }

  *readHas(groupId: number, userId: number): Reads<boolean> {
    return (yield this.hasStmt.get({ group_id: groupId, user_id: userId })) !== null;
  }

  *addMemberSteps(groupId: number, userId: number, now: number): Reads<void> {
    yield this.addStmt.write({ group_id: groupId, user_id: userId, now });
  }

  *removeMemberSteps(groupId: number, userId: number): Reads<void> {
    yield this.removeStmt.write({ group_id: groupId, user_id: userId });
  }

  *readMemberIds(groupId: number): Reads<number[]> {
    return ((yield this.idsStmt.all({ group_id: groupId })) as { user_id: number }[]).map((r) => r.user_id);
  }
}

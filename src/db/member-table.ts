// A group's member users (inbox_members, team_members): the same three statements for each table.
import type { Database, Statement } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export class MemberTable {
  private readonly hasStmt: TwoWayStatement;
  private readonly addStmt: Statement;
  private readonly removeStmt: Statement;
  private readonly idsStmt: Statement;

  /** `table` and `groupColumn` are constants of the caller, never input. */
  constructor(db: Database, table: "inbox_members" | "team_members", groupColumn: "inbox_id" | "team_id") {
    this.hasStmt = new TwoWayStatement(
      db,
      `SELECT 1 AS yes FROM ${table} WHERE ${groupColumn} = $group_id AND user_id = $user_id`,
    );
    this.addStmt = db.prepare(
      `INSERT INTO ${table} (${groupColumn}, user_id, created_at) VALUES ($group_id, $user_id, $now) ON CONFLICT DO NOTHING`,
    );
    this.removeStmt = db.prepare(`DELETE FROM ${table} WHERE ${groupColumn} = $group_id AND user_id = $user_id`);
    this.idsStmt = db.prepare(`SELECT user_id FROM ${table} WHERE ${groupColumn} = $group_id ORDER BY user_id`);
  }

  has(groupId: number, userId: number): boolean {
    return this.hasStmt.statement.get({ group_id: groupId, user_id: userId }) !== null;
  }

  *readHas(groupId: number, userId: number): Reads<boolean> {
    return (yield this.hasStmt.get({ group_id: groupId, user_id: userId })) !== null;
  }

  addMember(groupId: number, userId: number, now: number): void {
    this.addStmt.run({ group_id: groupId, user_id: userId, now });
  }

  removeMember(groupId: number, userId: number): void {
    this.removeStmt.run({ group_id: groupId, user_id: userId });
  }

  memberIds(groupId: number): number[] {
    return (this.idsStmt.all({ group_id: groupId }) as { user_id: number }[]).map((r) => r.user_id);
  }
}

import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface SessionRow {
  id: number;
  token_hash: string;
  user_id: number;
  created_at: number;
  last_used_at: number;
  expires_at: number;
  absolute_expires_at: number;
  ip: string | null;
  user_agent: string | null;
}

export type NewSession = Omit<SessionRow, "id">;

export class SessionsRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly byHashStmt: TwoWayStatement;
  private readonly touchStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;
  private readonly deleteForUserStmt: TwoWayStatement;
  private readonly deleteExpiredStmt: TwoWayStatement;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO sessions (token_hash, user_id, created_at, last_used_at, expires_at, absolute_expires_at, ip, user_agent)
       VALUES ($token_hash, $user_id, $created_at, $last_used_at, $expires_at, $absolute_expires_at, $ip, $user_agent)`,
    );
    this.byHashStmt = new TwoWayStatement(db, "SELECT * FROM sessions WHERE token_hash = $token_hash");
    this.touchStmt = new TwoWayStatement(
      db,
      "UPDATE sessions SET last_used_at = $now, expires_at = $expires_at WHERE id = $id",
    );
    this.deleteStmt = new TwoWayStatement(db, "DELETE FROM sessions WHERE id = $id");
    this.deleteForUserStmt = new TwoWayStatement(db, "DELETE FROM sessions WHERE user_id = $user_id");
    this.deleteExpiredStmt = new TwoWayStatement(
      db,
      "DELETE FROM sessions WHERE expires_at <= $now OR absolute_expires_at <= $now",
    );
  }

  *insertSteps(s: NewSession): Reads<number> {
    return yield* this.insertStmt.insertSteps(s as unknown as Record<string, string | number | null>);
  }

  byHash(tokenHash: string): SessionRow | null {
    return (this.byHashStmt.statement.get({ token_hash: tokenHash }) as SessionRow | null) ?? null;
  }

  *readByHash(tokenHash: string): Reads<SessionRow | null> {
    return (yield this.byHashStmt.get({ token_hash: tokenHash })) as SessionRow | null;
  }

  *touchSteps(id: number, now: number, expiresAt: number): Reads<void> {
    yield this.touchStmt.write({ id, now, expires_at: expiresAt });
  }

  *deleteSteps(id: number): Reads<void> {
    yield this.deleteStmt.write({ id });
  }

  *deleteForUserSteps(userId: number): Reads<number> {
    return yield* this.deleteForUserStmt.changesSteps({ user_id: userId });
  }

  *deleteExpiredSteps(now: number): Reads<number> {
    return yield* this.deleteExpiredStmt.changesSteps({ now });
  }
}

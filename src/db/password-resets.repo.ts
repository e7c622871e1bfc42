// Password resets by mail (migration 026): one live reset per user, found by its token's digest,
// and the row doubles as the reset mail's outbox (claimed before each attempt, as email_outbox is).
import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface PasswordResetRow {
  user_id: number;
  token_digest: string;
  sealed_token: string | null;
  requested_at: number;
  expires_at: number;
  mail_state: "pending" | "sent" | "failed";
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  sent_at: number | null;
  /** An ordinary reset, or a new agent's invitation (migration 027). */
  purpose: "reset" | "invitation";
  /** The account an invitation names. */
  account_id: number | null;
}

export interface NewReset {
  user_id: number;
  token_digest: string;
  sealed_token: string;
  expires_at: number;
  purpose: PasswordResetRow["purpose"];
  account_id: number | null;
}

export class PasswordResetsRepo {
  private readonly upsertStmt: TwoWayStatement;
  private readonly byUserStmt: TwoWayStatement;
  private readonly byDigestStmt: TwoWayStatement;
  private readonly dueStmt: TwoWayStatement;
  private readonly attemptStmt: TwoWayStatement;
  private readonly sentStmt: TwoWayStatement;
  private readonly retryStmt: TwoWayStatement;
  private readonly failedStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;
  private readonly deleteExpiredStmt: TwoWayStatement;

  constructor(db: Database) {
    // A new request replaces the user's earlier reset: its link stops working, its mail (if not yet
    // sent) is not sent.
    this.upsertStmt = new TwoWayStatement(
      db,
      `INSERT INTO password_resets (user_id, token_digest, sealed_token, requested_at, expires_at, mail_state, attempts,
         next_attempt_at, last_error, sent_at, purpose, account_id)
       VALUES ($user_id, $token_digest, $sealed_token, $now, $expires_at, 'pending', 0, $now, NULL, NULL, $purpose, $account_id)
       ON CONFLICT (user_id) DO UPDATE SET token_digest = excluded.token_digest, sealed_token = excluded.sealed_token,
         requested_at = excluded.requested_at, expires_at = excluded.expires_at, mail_state = 'pending', attempts = 0,
         next_attempt_at = excluded.next_attempt_at, last_error = NULL, sent_at = NULL, purpose = excluded.purpose,
         account_id = excluded.account_id`,
    );
    this.byUserStmt = new TwoWayStatement(db, "SELECT * FROM password_resets WHERE user_id = $user_id");
    this.byDigestStmt = new TwoWayStatement(db, "SELECT * FROM password_resets WHERE token_digest = $token_digest");
    this.dueStmt = new TwoWayStatement(
      db,
      `SELECT * FROM password_resets INDEXED BY password_resets_due
       WHERE mail_state = 'pending' AND next_attempt_at <= $now ORDER BY next_attempt_at, user_id LIMIT $limit`,
    );
    this.attemptStmt = new TwoWayStatement(
      db,
      `UPDATE password_resets SET attempts = attempts + 1, next_attempt_at = $retry_at
       WHERE user_id = $user_id AND token_digest = $token_digest AND mail_state = 'pending' AND next_attempt_at <= $now`,
    );
    this.sentStmt = new TwoWayStatement(
      db,
      `UPDATE password_resets SET mail_state = 'sent', sent_at = $now, sealed_token = NULL, last_error = NULL
       WHERE user_id = $user_id AND token_digest = $token_digest`,
    );
    this.retryStmt = new TwoWayStatement(
      db,
      `UPDATE password_resets SET next_attempt_at = $retry_at, last_error = $error
       WHERE user_id = $user_id AND token_digest = $token_digest AND mail_state = 'pending'`,
    );
    this.failedStmt = new TwoWayStatement(
      db,
      `UPDATE password_resets SET mail_state = 'failed', sealed_token = NULL, last_error = $error
       WHERE user_id = $user_id AND token_digest = $token_digest`,
    );
    this.deleteStmt = new TwoWayStatement(db, "DELETE FROM password_resets WHERE user_id = $user_id");
    this.deleteExpiredStmt = new TwoWayStatement(db, "DELETE FROM password_resets WHERE expires_at <= $now");
  }

  *replaceSteps(r: NewReset, now: number): Reads<void> {
    yield this.upsertStmt.write({ ...r, now });
  }

  *readByUser(userId: number): Reads<PasswordResetRow | null> {
    return (yield this.byUserStmt.get({ user_id: userId })) as PasswordResetRow | null;
  }

  *readByDigest(digest: string): Reads<PasswordResetRow | null> {
    return (yield this.byDigestStmt.get({ token_digest: digest })) as PasswordResetRow | null;
  }

  *readDue(now: number, limit: number): Reads<PasswordResetRow[]> {
    return (yield this.dueStmt.all({ now, limit })) as PasswordResetRow[];
  }

  /**
   * Claims the mail for one attempt, recording when to try again if it never reports back (a crash
   * mid-send). False when the reset was replaced, finished or tried since it was listed: nothing to
   * send (a list read on PostgreSQL's read pool can be older than an attempt that ended meanwhile).
   */
  *recordAttemptSteps(row: PasswordResetRow, now: number, retryAt: number): Reads<boolean> {
    const key = { user_id: row.user_id, token_digest: row.token_digest };
    return (yield* this.attemptStmt.changesSteps({ ...key, now, retry_at: retryAt })) > 0;
  }

  *sentSteps(row: PasswordResetRow, now: number): Reads<void> {
    yield this.sentStmt.write({ user_id: row.user_id, token_digest: row.token_digest, now });
  }

  *retryAtSteps(row: PasswordResetRow, retryAt: number, error: string): Reads<void> {
    const key = { user_id: row.user_id, token_digest: row.token_digest };
    yield this.retryStmt.write({ ...key, retry_at: retryAt, error: error.slice(0, 1000) });
  }

  *failedSteps(row: PasswordResetRow, error: string): Reads<void> {
    yield this.failedStmt.write({ user_id: row.user_id, token_digest: row.token_digest, error: error.slice(0, 1000) });
  }

  *deleteSteps(userId: number): Reads<void> {
    yield this.deleteStmt.write({ user_id: userId });
  }

  *deleteExpiredSteps(now: number): Reads<number> {
    return yield* this.deleteExpiredStmt.changesSteps({ now });
  }
}

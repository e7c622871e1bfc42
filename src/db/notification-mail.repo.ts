// Notifications to mail (migration 028): queued with the notification, sent a minute later unless
// read by then, claimed before each attempt so a crash retries it and nothing sends it twice.
import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface NotificationMailRow {
  notification_id: number;
  account_id: number;
  user_id: number;
  state: "pending" | "sent" | "skipped" | "failed";
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

export class NotificationMailRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly dueStmt: TwoWayStatement;
  private readonly attemptStmt: TwoWayStatement;
  private readonly finishStmt: TwoWayStatement;
  private readonly retryStmt: TwoWayStatement;
  private readonly pruneStmt: TwoWayStatement;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO notification_mail (notification_id, account_id, user_id, state, next_attempt_at, created_at)
       VALUES ($notification_id, $account_id, $user_id, 'pending', $send_at, $now)`,
    );
    this.dueStmt = new TwoWayStatement(
      db,
      `SELECT * FROM notification_mail INDEXED BY notification_mail_due
       WHERE state = 'pending' AND next_attempt_at <= $now ORDER BY next_attempt_at, notification_id LIMIT $limit`,
    );
    this.attemptStmt = new TwoWayStatement(
      db,
      `UPDATE notification_mail SET attempts = attempts + 1, next_attempt_at = $retry_at
       WHERE notification_id = $notification_id AND state = 'pending' AND next_attempt_at <= $now`,
    );
    this.finishStmt = new TwoWayStatement(
      db,
      `UPDATE notification_mail SET state = $state, sent_at = $sent_at, last_error = $error
       WHERE notification_id = $notification_id`,
    );
    this.retryStmt = new TwoWayStatement(
      db,
      `UPDATE notification_mail SET next_attempt_at = $retry_at, last_error = $error
       WHERE notification_id = $notification_id AND state = 'pending'`,
    );
    this.pruneStmt = new TwoWayStatement(
      db,
      "DELETE FROM notification_mail WHERE state != 'pending' AND created_at < $before",
    );
  }

  /** Queues the mail of a notification just inserted, to go at `sendAt`. */
  *insertSteps(
    r: { notification_id: number; account_id: number; user_id: number },
    sendAt: number,
    now: number,
  ): Reads<void> {
    yield this.insertStmt.write({ ...r, send_at: sendAt, now });
  }

  *readDue(now: number, limit: number): Reads<NotificationMailRow[]> {
    return (yield this.dueStmt.all({ now, limit })) as NotificationMailRow[];
  }

  /**
   * Claims one attempt, with the time to retry if it never reports back; false when no longer due
   * (finished, or tried since it was listed: a list read on the read pool can be that old).
   */
  *recordAttemptSteps(notificationId: number, now: number, retryAt: number): Reads<boolean> {
    return (yield* this.attemptStmt.changesSteps({ notification_id: notificationId, now, retry_at: retryAt })) > 0;
  }

  *finishSteps(
    notificationId: number,
    state: "sent" | "skipped" | "failed",
    now: number,
    error: string | null = null,
  ): Reads<void> {
    yield this.finishStmt.write({
      notification_id: notificationId,
      state,
      sent_at: state === "sent" ? now : null,
      error: error?.slice(0, 1000) ?? null,
    });
  }

  *retryAtSteps(notificationId: number, retryAt: number, error: string): Reads<void> {
    yield this.retryStmt.write({ notification_id: notificationId, retry_at: retryAt, error: error.slice(0, 1000) });
  }

  /** Drops finished rows older than `before` (the notifications themselves stay). */
  *pruneSteps(before: number): Reads<number> {
    return yield* this.pruneStmt.changesSteps({ before });
  }
}

// Mobile push (migration 030): devices' FCM registrations, and the pushes queued for them with each
// notification, claimed before each attempt as the mail outboxes are.
import type { Database, Statement } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface SubscriptionRow {
  id: number;
  user_id: number;
  subscription_type: "fcm";
  identifier: string;
  push_token: string;
  /** JSON: what the app sent (push_token, device_id, device name, platform…). */
  subscription_attributes: string;
  created_at: number;
  updated_at: number;
}

export interface PushRow {
  id: number;
  notification_id: number;
  subscription_id: number;
  state: "pending" | "sent" | "failed";
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

/** A due push with what it carries: its notification and the device's token. */
export interface DuePush extends PushRow {
  push_token: string;
  account_id: number;
  user_id: number;
  notification_type: string;
  conversation_id: number;
  data: string;
}

export class PushRepo {
  private readonly upsertStmt: TwoWayStatement;
  private readonly dropMovedStmt: TwoWayStatement;
  private readonly byIdentifierStmt: TwoWayStatement;
  private readonly ofUserStmt: Statement;
  private readonly deleteByTokenStmt: TwoWayStatement;
  private readonly queueStmt: TwoWayStatement;
  private readonly dueStmt: TwoWayStatement;
  private readonly attemptStmt: TwoWayStatement;
  private readonly finishStmt: TwoWayStatement;
  private readonly retryStmt: TwoWayStatement;
  private readonly pruneStmt: TwoWayStatement;

  constructor(db: Database) {
    // One row per device: signing in as someone else on the same phone moves it to them (Chatwoot's builder).
    this.upsertStmt = new TwoWayStatement(
      db,
      `INSERT INTO notification_subscriptions (user_id, subscription_type, identifier, push_token, subscription_attributes, created_at, updated_at)
       VALUES ($user_id, 'fcm', $identifier, $push_token, $attributes, $now, $now)
       ON CONFLICT (identifier) DO UPDATE SET user_id = excluded.user_id, push_token = excluded.push_token,
         subscription_attributes = excluded.subscription_attributes, updated_at = excluded.updated_at`,
    );
    // A device that changes hands keeps none of the previous user's unsent pushes.
    this.dropMovedStmt = new TwoWayStatement(
      db,
      `DELETE FROM notification_pushes WHERE state = 'pending' AND subscription_id IN
         (SELECT id FROM notification_subscriptions WHERE identifier = $identifier AND user_id != $user_id)`,
    );
    this.byIdentifierStmt = new TwoWayStatement(
      db,
      "SELECT * FROM notification_subscriptions WHERE identifier = $identifier",
    );
    this.ofUserStmt = db.prepare("SELECT * FROM notification_subscriptions WHERE user_id = $user_id ORDER BY id");
    this.deleteByTokenStmt = new TwoWayStatement(
      db,
      "DELETE FROM notification_subscriptions WHERE user_id = $user_id AND push_token = $push_token",
    );
    this.queueStmt = new TwoWayStatement(
      db,
      `INSERT INTO notification_pushes (notification_id, subscription_id, state, next_attempt_at, created_at)
       SELECT $notification_id, id, 'pending', $now, $now FROM notification_subscriptions WHERE user_id = $user_id`,
    );
    this.dueStmt = new TwoWayStatement(
      db,
      `SELECT p.*, s.push_token, n.account_id, n.user_id, n.notification_type, n.conversation_id, n.data
       FROM notification_pushes p INDEXED BY notification_pushes_due
       JOIN notification_subscriptions s ON s.id = p.subscription_id
       JOIN notifications n ON n.id = p.notification_id
       WHERE p.state = 'pending' AND p.next_attempt_at <= $now ORDER BY p.next_attempt_at, p.id LIMIT $limit`,
    );
    this.attemptStmt = new TwoWayStatement(
      db,
      `UPDATE notification_pushes SET attempts = attempts + 1, next_attempt_at = $retry_at
       WHERE id = $id AND state = 'pending' AND next_attempt_at <= $now`,
    );
    this.finishStmt = new TwoWayStatement(
      db,
      "UPDATE notification_pushes SET state = $state, sent_at = $sent_at, last_error = $error WHERE id = $id",
    );
    this.retryStmt = new TwoWayStatement(
      db,
      "UPDATE notification_pushes SET next_attempt_at = $retry_at, last_error = $error WHERE id = $id AND state = 'pending'",
    );
    this.pruneStmt = new TwoWayStatement(
      db,
      "DELETE FROM notification_pushes WHERE state != 'pending' AND created_at < $before",
    );
  }

  *subscribeSteps(
    s: { user_id: number; identifier: string; push_token: string; attributes: string },
    now: number,
  ): Reads<SubscriptionRow> {
    yield this.dropMovedStmt.write({ identifier: s.identifier, user_id: s.user_id });
    yield this.upsertStmt.write({ ...s, now });
    return (yield this.byIdentifierStmt.get({ identifier: s.identifier })) as SubscriptionRow;
  }

  subscriptionsOf(userId: number): SubscriptionRow[] {
    return this.ofUserStmt.all({ user_id: userId }) as SubscriptionRow[];
  }

  /** The user's own devices with this token (never another user's); how many were removed. */
  *unsubscribeSteps(userId: number, pushToken: string): Reads<number> {
    return yield* this.deleteByTokenStmt.changesSteps({ user_id: userId, push_token: pushToken });
  }

  /** A push to each of the user's devices for this notification; how many. */
  *queueSteps(notificationId: number, userId: number, now: number): Reads<void> {
    yield this.queueStmt.write({ notification_id: notificationId, user_id: userId, now });
  }

  *readDue(now: number, limit: number): Reads<DuePush[]> {
    return (yield this.dueStmt.all({ now, limit })) as DuePush[];
  }

  /** Claims one attempt; false when no longer due (finished, or tried since it was listed). */
  *recordAttemptSteps(id: number, now: number, retryAt: number): Reads<boolean> {
    return (yield* this.attemptStmt.changesSteps({ id, now, retry_at: retryAt })) > 0;
  }

  *finishSteps(id: number, state: "sent" | "failed", now: number, error: string | null = null): Reads<void> {
    const sentAt = state === "sent" ? now : null;
    yield this.finishStmt.write({ id, state, sent_at: sentAt, error: error?.slice(0, 1000) ?? null });
  }

  *retryAtSteps(id: number, retryAt: number, error: string): Reads<void> {
    yield this.retryStmt.write({ id, retry_at: retryAt, error: error.slice(0, 1000) });
  }

  *pruneSteps(before: number): Reads<number> {
    return yield* this.pruneStmt.changesSteps({ before });
  }
}

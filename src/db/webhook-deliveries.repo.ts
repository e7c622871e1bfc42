// Webhook deliveries (one per event and receiver) and their attempts.
import type { Database, Statement } from "bun:sqlite";

export type DeliveryStatus = "pending" | "delivered" | "failed";

export interface DeliveryRow {
  id: number;
  delivery_id: string;
  account_id: number;
  webhook_id: number | null;
  inbox_id: number | null;
  target_url: string;
  target_key: string;
  order_key: string | null;
  event_id: number;
  event_kind: string;
  conversation_id: number | null;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  max_attempts: number;
  next_attempt_at_ms: number | null;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  created_at_ms: number;
  updated_at_ms: number;
}

export type NewDelivery = Pick<
  DeliveryRow,
  "delivery_id" | "account_id" | "webhook_id" | "inbox_id" | "target_url" | "target_key" | "order_key" | "event_id" | "event_kind" | "conversation_id" | "payload" | "max_attempts"
> & { now_ms: number };

export interface AttemptRow {
  id: number;
  delivery_id: number;
  attempt: number;
  started_at_ms: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

export interface DeliveryOutcome {
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at_ms: number | null;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number;
  now_ms: number;
}

export class WebhookDeliveriesRepo {
  private readonly insertStmt: Statement;
  private readonly dueStmt: Statement;
  private readonly byIdStmt: Statement;
  private readonly insertAttemptStmt: Statement;
  private readonly finishStmt: Statement;
  private readonly failPendingStmt: Statement;
  private readonly retargetStmt: Statement;
  private readonly listStmt: Statement;
  private readonly countStmt: Statement;
  private readonly byUuidStmt: Statement;
  private readonly attemptsStmt: Statement;
  private readonly redeliverStmt: Statement;
  private readonly pruneStmt: Statement;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO webhook_deliveries (delivery_id, account_id, webhook_id, inbox_id, target_url, target_key, order_key, event_id,
         event_kind, conversation_id, payload, max_attempts, next_attempt_at_ms, created_at_ms, updated_at_ms)
       VALUES ($delivery_id, $account_id, $webhook_id, $inbox_id, $target_url, $target_key, $order_key, $event_id,
         $event_kind, $conversation_id, $payload, $max_attempts, $now_ms, $now_ms, $now_ms)`,
    );
    // Due deliveries that head their stream: an ordered delivery waits while an earlier one of the same
    // stream is still pending (even if that one is waiting out a backoff). Deliveries already in flight
    // and receivers already at their concurrency cap are left out here, so they cannot crowd the window.
    this.dueStmt = db.prepare(
      `SELECT * FROM webhook_deliveries d
       WHERE d.status = 'pending' AND d.next_attempt_at_ms <= $now_ms
         AND d.id NOT IN (SELECT value FROM json_each($busy_ids))
         AND d.target_key NOT IN (SELECT value FROM json_each($busy_targets))
         AND (d.order_key IS NULL OR NOT EXISTS (
           SELECT 1 FROM webhook_deliveries e
           WHERE e.status = 'pending' AND e.target_key = d.target_key AND e.order_key = d.order_key AND e.id < d.id))
       ORDER BY d.next_attempt_at_ms, d.id
       LIMIT $limit`,
    );
    this.byIdStmt = db.prepare("SELECT * FROM webhook_deliveries WHERE id = $id");
    this.insertAttemptStmt = db.prepare(
      `INSERT INTO webhook_attempts (delivery_id, attempt, started_at_ms, status_code, latency_ms, error, response_excerpt)
       VALUES ($delivery_id, $attempt, $started_at_ms, $status_code, $latency_ms, $error, $response_excerpt)`,
    );
    this.finishStmt = db.prepare(
      `UPDATE webhook_deliveries SET status = $status, attempts = $attempts, next_attempt_at_ms = $next_attempt_at_ms,
         last_status_code = $last_status_code, last_error = $last_error, last_latency_ms = $last_latency_ms, updated_at_ms = $now_ms
       WHERE id = $id`,
    );
    this.failPendingStmt = db.prepare(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at_ms = NULL, last_error = $error, updated_at_ms = $now_ms
       WHERE webhook_id = $webhook_id AND status = 'pending'`,
    );
    this.retargetStmt = db.prepare(
      "UPDATE webhook_deliveries SET target_url = $url WHERE webhook_id = $webhook_id AND status = 'pending'",
    );
    this.listStmt = db.prepare(
      "SELECT * FROM webhook_deliveries WHERE webhook_id = $webhook_id ORDER BY id DESC LIMIT $limit OFFSET $offset",
    );
    this.countStmt = db.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = $webhook_id");
    this.byUuidStmt = db.prepare("SELECT * FROM webhook_deliveries WHERE webhook_id = $webhook_id AND delivery_id = $delivery_id");
    this.attemptsStmt = db.prepare("SELECT * FROM webhook_attempts WHERE delivery_id = $id ORDER BY id DESC LIMIT $limit");
    this.redeliverStmt = db.prepare(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at_ms = $now_ms, max_attempts = $max_attempts, updated_at_ms = $now_ms
       WHERE id = $id`,
    );
    this.pruneStmt = db.prepare(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND updated_at_ms < $before_ms LIMIT $limit)`,
    );
  }

  insert(d: NewDelivery): number {
    return Number(this.insertStmt.run(d).lastInsertRowid);
  }

  due(q: { nowMs: number; busyIds: number[]; busyTargets: string[]; limit: number }): DeliveryRow[] {
    return this.dueStmt.all({
      now_ms: q.nowMs,
      busy_ids: JSON.stringify(q.busyIds),
      busy_targets: JSON.stringify(q.busyTargets),
      limit: q.limit,
    }) as DeliveryRow[];
  }

  byId(id: number): DeliveryRow | null {
    return (this.byIdStmt.get({ id }) as DeliveryRow | null) ?? null;
  }

  insertAttempt(a: Omit<AttemptRow, "id">): void {
    this.insertAttemptStmt.run(a);
  }

  finish(id: number, o: DeliveryOutcome): void {
    this.finishStmt.run({ id, ...o });
  }

  failPendingOfWebhook(webhookId: number, error: string, nowMs: number): void {
    this.failPendingStmt.run({ webhook_id: webhookId, error, now_ms: nowMs });
  }

  /** A changed webhook URL applies to what is still waiting to be sent. */
  retargetPending(webhookId: number, url: string): void {
    this.retargetStmt.run({ webhook_id: webhookId, url });
  }

  listForWebhook(webhookId: number, limit: number, offset: number): DeliveryRow[] {
    return this.listStmt.all({ webhook_id: webhookId, limit, offset }) as DeliveryRow[];
  }

  countForWebhook(webhookId: number): number {
    return (this.countStmt.get({ webhook_id: webhookId }) as { n: number }).n;
  }

  byDeliveryId(webhookId: number, deliveryId: string): DeliveryRow | null {
    return (this.byUuidStmt.get({ webhook_id: webhookId, delivery_id: deliveryId }) as DeliveryRow | null) ?? null;
  }

  attemptsOf(id: number, limit: number): AttemptRow[] {
    return this.attemptsStmt.all({ id, limit }) as AttemptRow[];
  }

  redeliver(id: number, maxAttempts: number, nowMs: number): void {
    this.redeliverStmt.run({ id, max_attempts: maxAttempts, now_ms: nowMs });
  }

  /** Deletes up to `limit` finished deliveries last touched before `beforeMs`; returns how many. */
  pruneFinished(beforeMs: number, limit: number): number {
    return this.pruneStmt.run({ before_ms: beforeMs, limit }).changes;
  }
}

// Webhook deliveries (one per event and receiver) and their attempts.
import type { Database } from "bun:sqlite";
import { type Reads, readNow, TwoWayStatement } from "./reads.ts";

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
  blocked: number;
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
  | "delivery_id"
  | "account_id"
  | "webhook_id"
  | "inbox_id"
  | "target_url"
  | "target_key"
  | "order_key"
  | "event_id"
  | "event_kind"
  | "conversation_id"
  | "payload"
  | "max_attempts"
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

/**
 * A delivery that may be sent now: a pending stream head whose time has come. Both reads below use it
 * word for word; the due list's terms are also the partial index webhook_deliveries_ready's condition.
 */
const DUE = "status = 'pending' AND blocked = 0 AND next_attempt_at_ms <= $now_ms";

export class WebhookDeliveriesRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly readyTargetsStmt: TwoWayStatement;
  private readonly dueStmt: TwoWayStatement;
  private readonly unblockNextStmt: TwoWayStatement;
  private readonly repairStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly stillDueStmt: TwoWayStatement;
  private readonly insertAttemptStmt: TwoWayStatement;
  private readonly finishStmt: TwoWayStatement;
  private readonly failPendingStmt: TwoWayStatement;
  private readonly retargetStmt: TwoWayStatement;
  private readonly listStmt: TwoWayStatement;
  private readonly countStmt: TwoWayStatement;
  private readonly byUuidStmt: TwoWayStatement;
  private readonly attemptsStmt: TwoWayStatement;
  private readonly redeliverStmt: TwoWayStatement;
  private readonly pruneStmt: TwoWayStatement;

  constructor(db: Database) {
    // Blocked from the start when an earlier delivery of its stream is still pending.
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO webhook_deliveries (delivery_id, account_id, webhook_id, inbox_id, target_url, target_key, order_key, blocked,
         event_id, event_kind, conversation_id, payload, max_attempts, next_attempt_at_ms, created_at_ms, updated_at_ms)
       VALUES ($delivery_id, $account_id, $webhook_id, $inbox_id, $target_url, $target_key, $order_key,
         CASE WHEN CAST($order_key AS TEXT) IS NOT NULL AND EXISTS (SELECT 1 FROM webhook_deliveries
           WHERE status = 'pending' AND target_key = $target_key AND order_key = $order_key) THEN 1 ELSE 0 END,
         $event_id, $event_kind, $conversation_id, $payload, $max_attempts, $now_ms, $now_ms, $now_ms)`,
    );
    // Receivers with stream heads waiting, one index probe per receiver (a loose index scan), so the cost
    // does not grow with the backlog.
    this.readyTargetsStmt = new TwoWayStatement(
      db,

      `WITH RECURSIVE t(k) AS (
         SELECT MIN(target_key) FROM webhook_deliveries WHERE status = 'pending' AND blocked = 0
         UNION ALL
         SELECT (SELECT MIN(target_key) FROM webhook_deliveries WHERE status = 'pending' AND blocked = 0 AND target_key > t.k)
         FROM t WHERE t.k IS NOT NULL)
       SELECT k FROM t WHERE k IS NOT NULL`,
    );
    this.dueStmt = new TwoWayStatement(
      db,

      `SELECT * FROM webhook_deliveries WHERE ${DUE} AND target_key = $target_key
       ORDER BY next_attempt_at_ms, id
       LIMIT $limit`,
    );
    this.stillDueStmt = new TwoWayStatement(db, `SELECT * FROM webhook_deliveries WHERE id = $id AND ${DUE}`);
    // The oldest pending delivery of a stream is its head: it may go.
    this.unblockNextStmt = new TwoWayStatement(
      db,

      `UPDATE webhook_deliveries SET blocked = 0 WHERE id = (
         SELECT id FROM webhook_deliveries WHERE status = 'pending' AND target_key = $target_key AND order_key = $order_key
         ORDER BY id LIMIT 1)`,
    );
    // Safety net: any blocked delivery with nothing pending before it is a head.
    this.repairStmt = new TwoWayStatement(
      db,
      `UPDATE webhook_deliveries SET blocked = 0
       WHERE status = 'pending' AND blocked = 1 AND NOT EXISTS (
         SELECT 1 FROM webhook_deliveries e WHERE e.status = 'pending' AND e.target_key = webhook_deliveries.target_key
           AND e.order_key = webhook_deliveries.order_key AND e.id < webhook_deliveries.id)`,
    );
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM webhook_deliveries WHERE id = $id");
    this.insertAttemptStmt = new TwoWayStatement(
      db,

      `INSERT INTO webhook_attempts (delivery_id, attempt, started_at_ms, status_code, latency_ms, error, response_excerpt)
       VALUES ($delivery_id, $attempt, $started_at_ms, $status_code, $latency_ms, $error, $response_excerpt)`,
    );
    this.finishStmt = new TwoWayStatement(
      db,

      `UPDATE webhook_deliveries SET status = $status, attempts = $attempts, next_attempt_at_ms = $next_attempt_at_ms,
         last_status_code = $last_status_code, last_error = $last_error, last_latency_ms = $last_latency_ms, updated_at_ms = $now_ms
       WHERE id = $id`,
    );
    this.failPendingStmt = new TwoWayStatement(
      db,

      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at_ms = NULL, last_error = $error, updated_at_ms = $now_ms
       WHERE webhook_id = $webhook_id AND status = 'pending'`,
    );
    this.retargetStmt = new TwoWayStatement(
      db,
      "UPDATE webhook_deliveries SET target_url = $url WHERE webhook_id = $webhook_id AND status = 'pending'",
    );
    // The delivery log's reads: a read-only route awaits them on the read pool (src/db/reads.ts), a
    // redelivery in its body.
    this.listStmt = new TwoWayStatement(
      db,
      "SELECT * FROM webhook_deliveries WHERE webhook_id = $webhook_id ORDER BY id DESC LIMIT $limit OFFSET $offset",
    );
    this.countStmt = new TwoWayStatement(
      db,
      "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = $webhook_id",
    );
    this.byUuidStmt = new TwoWayStatement(
      db,
      "SELECT * FROM webhook_deliveries WHERE webhook_id = $webhook_id AND delivery_id = $delivery_id",
    );
    this.attemptsStmt = new TwoWayStatement(
      db,
      "SELECT * FROM webhook_attempts WHERE delivery_id = $id ORDER BY id DESC LIMIT $limit",
    );
    // A finished delivery sent again goes at once, outside its stream's order (the receiver has seen what
    // followed it already); a pending one keeps its place behind an earlier pending one.
    this.redeliverStmt = new TwoWayStatement(
      db,
      `UPDATE webhook_deliveries SET blocked = CASE WHEN status = 'pending' THEN blocked ELSE 0 END, status = 'pending',
         next_attempt_at_ms = $now_ms, max_attempts = $max_attempts, updated_at_ms = $now_ms
       WHERE id = $id`,
    );
    this.pruneStmt = new TwoWayStatement(
      db,
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND updated_at_ms < $before_ms LIMIT $limit)`,
    );
  }

  insert(d: NewDelivery): number {
    return readNow(this.insertSteps(d));
  }

  *insertSteps(d: NewDelivery): Reads<number> {
    return yield* this.insertStmt.insertSteps(d as unknown as Record<string, string | number | null>);
  }

  /** Receivers (target keys) that have a stream head pending, due or not. */
  *readReadyTargets(): Reads<string[]> {
    return ((yield this.readyTargetsStmt.all({})) as { k: string }[]).map((r) => r.k);
  }

  /** A receiver's due stream heads, oldest due first. */
  *readDueFor(targetKey: string, nowMs: number, limit: number): Reads<DeliveryRow[]> {
    return (yield this.dueStmt.all({ target_key: targetKey, now_ms: nowMs, limit })) as DeliveryRow[];
  }

  /** The delivery if it is still a due stream head (read again once its stream is claimed). */
  *readStillDue(id: number, nowMs: number): Reads<DeliveryRow | null> {
    return (yield this.stillDueStmt.get({ id, now_ms: nowMs })) as DeliveryRow | null;
  }

  *readById(id: number): Reads<DeliveryRow | null> {
    return (yield this.byIdStmt.get({ id })) as DeliveryRow | null;
  }

  *insertAttemptSteps(a: Omit<AttemptRow, "id">): Reads<void> {
    yield this.insertAttemptStmt.write(a as unknown as Record<string, string | number | null>);
  }

  /** Records the outcome; a finished delivery lets the next one of its stream go. */
  *finishSteps(row: Pick<DeliveryRow, "id" | "target_key" | "order_key">, o: DeliveryOutcome): Reads<void> {
    yield this.finishStmt.write({ id: row.id, ...o });
    if (o.status !== "pending" && row.order_key !== null)
      yield this.unblockNextStmt.write({ target_key: row.target_key, order_key: row.order_key });
  }

  /** Unblocks stream heads left blocked (nothing pending before them); returns how many. */
  *repairStreamsSteps(): Reads<number> {
    return yield* this.repairStmt.changesSteps({});
  }

  *failPendingOfWebhookSteps(webhookId: number, error: string, nowMs: number): Reads<void> {
    yield this.failPendingStmt.write({ webhook_id: webhookId, error, now_ms: nowMs });
  }

  /** A changed webhook URL applies to what is still waiting to be sent. */
  *retargetPendingSteps(webhookId: number, url: string): Reads<void> {
    yield this.retargetStmt.write({ webhook_id: webhookId, url });
  }

  *readForWebhook(webhookId: number, limit: number, offset: number): Reads<DeliveryRow[]> {
    return (yield this.listStmt.all({ webhook_id: webhookId, limit, offset })) as DeliveryRow[];
  }

  *readCountForWebhook(webhookId: number): Reads<number> {
    return ((yield this.countStmt.get({ webhook_id: webhookId })) as { n: number }).n;
  }

  *readByDeliveryId(webhookId: number, deliveryId: string): Reads<DeliveryRow | null> {
    return (yield this.byUuidStmt.get({ webhook_id: webhookId, delivery_id: deliveryId })) as DeliveryRow | null;
  }

  *readAttempts(id: number, limit: number): Reads<AttemptRow[]> {
    return (yield this.attemptsStmt.all({ id, limit })) as AttemptRow[];
  }

  *redeliverSteps(id: number, maxAttempts: number, nowMs: number): Reads<void> {
    yield this.redeliverStmt.write({ id, max_attempts: maxAttempts, now_ms: nowMs });
  }

  /** Deletes up to `limit` finished deliveries last touched before `beforeMs`; returns how many. */
  *pruneFinishedSteps(beforeMs: number, limit: number): Reads<number> {
    return yield* this.pruneStmt.changesSteps({ before_ms: beforeMs, limit });
  }
}

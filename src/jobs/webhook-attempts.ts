// Records webhook attempt outcomes and decides what comes next: delivered, retry at the policy's next
// time, or failed (410 also disables the webhook; a message's API inbox callback that fails tells the
// messages feature). Outcomes finished in the same event-loop turn share one transaction: with many
// attempts in flight, the commit was the largest cost per delivery. The bodies are awaited ones
// (writeTx.steps): on PostgreSQL the process serves requests while they are written.
import type { DeliveryRow, DeliveryStatus, WebhookDeliveriesRepo } from "../db/webhook-deliveries.repo.ts";
import type { WebhooksRepo } from "../db/webhooks.repo.ts";
import { nested, type Reads } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { classifyAttempt, disablesEndpoint, nextAttemptAt } from "../domain/delivery-policy.ts";
import type { Clock } from "../lib/clock.ts";
import { errorFields, type Logger } from "../lib/logger.ts";
import type { SafePostResult } from "../lib/ssrf.ts";

/** An API inbox callback for a message that will not be retried again. */
export interface GaveUpCallback {
  deliveryId: string;
  accountId: number;
  inboxId: number;
  eventKind: string;
  /** The message id from the payload (`id`), as the messages feature needs it. */
  messageId: number | null;
}

/**
 * Marks the message failed with the reason (Chatwoot: status "failed", external_error), as the steps
 * it returns, run inside the delivery's transaction; nothing when there is nothing to write.
 */
export type OnCallbackGaveUp = (delivery: GaveUpCallback, reason: string) => Reads<unknown> | undefined;

const MESSAGE_KINDS = new Set(["message_created", "message_updated"]);

export type AttemptResult = Pick<
  SafePostResult,
  "status" | "error" | "latencyMs" | "responseBody" | "retryAfterSeconds"
>;

export interface Outcome {
  /** Row id of the delivery. */
  id: number;
  startedAt: number;
  result: AttemptResult;
  /** No request was made because the target may not be used (disabled webhook, inbox gone): final. */
  refused: boolean;
}

export interface RecorderDeps {
  deliveries: WebhookDeliveriesRepo;
  webhooks: WebhooksRepo;
  writeTx: WriteTx;
  clock: Clock;
  logger: Logger;
  onCallbackGaveUp: OnCallbackGaveUp;
  random?: () => number;
}

export class AttemptRecorder {
  private queue: { outcome: Outcome; done: () => void }[] = [];

  constructor(private readonly d: RecorderDeps) {}

  /** Resolves once the outcome is committed (or, if the database refused it, logged: the delivery stays due). */
  record(outcome: Outcome): Promise<void> {
    return new Promise((done) => {
      // flush() logs what it cannot record; the catch is for a bug in it, never an unhandled rejection.
      if (this.queue.push({ outcome, done }) === 1)
        setImmediate(() =>
          this.flush().catch((error) => this.d.logger.error("webhook attempts flush failed", errorFields(error))),
        );
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    try {
      if (batch.length === 1) await this.recordAlone(batch[0]!.outcome);
      else {
        try {
          await this.d.writeTx.steps(() => this.applyAll(batch.map((entry) => entry.outcome)));
        } catch {
          // Some entry failed (most likely the callback hook), and the batch rolled back, hook effects
          // included: record each on its own so the others stand.
          for (const { outcome } of batch) await this.recordAlone(outcome);
        }
      }
    } finally {
      for (const { done } of batch) done();
    }
  }

  private async recordAlone(outcome: Outcome): Promise<void> {
    try {
      await this.d.writeTx.steps(() => this.apply(outcome, true));
    } catch (error) {
      // A failing hook must not roll the attempt back forever (the request would be re-sent every second).
      this.d.logger.error("webhook attempt could not be recorded with its hook; recording it without", {
        id: outcome.id,
        ...errorFields(error),
      });
      try {
        await this.d.writeTx.steps(() => this.apply(outcome, false));
      } catch (again) {
        this.d.logger.error("webhook attempt could not be recorded; it will be sent again", {
          id: outcome.id,
          ...errorFields(again),
        });
      }
    }
  }

  private *applyAll(outcomes: readonly Outcome[]): Reads<void> {
    for (const outcome of outcomes) yield* this.apply(outcome, true);
  }

  private *apply({ id, startedAt, result, refused }: Outcome, withHook: boolean): Reads<void> {
    const row = yield* this.d.deliveries.readById(id);
    if (!row) return; // deleted with its webhook while the request was in flight
    const now = this.d.clock.nowMs();
    const attempts = row.attempts + 1;
    const outcome = refused ? "give_up" : classifyAttempt(result);
    let status: DeliveryStatus = "failed";
    let next: number | null = null;
    if (outcome === "delivered") status = "delivered";
    else if (outcome === "retry" && attempts < row.max_attempts) {
      next = nextAttemptAt(attempts, now, this.d.random ?? Math.random, result.retryAfterSeconds);
      if (next !== null) status = "pending";
    }
    const error = result.error ?? (status === "delivered" ? null : `HTTP ${result.status}`);
    yield* this.d.deliveries.insertAttemptSteps({
      delivery_id: id,
      attempt: attempts,
      started_at_ms: startedAt,
      status_code: result.status,
      latency_ms: result.latencyMs,
      error,
      response_excerpt: result.responseBody === "" ? null : result.responseBody,
    });
    yield* this.d.deliveries.finishSteps(row, {
      status,
      attempts,
      next_attempt_at_ms: next,
      last_status_code: result.status,
      last_error: error,
      last_latency_ms: result.latencyMs,
      now_ms: now,
    });
    if (row.webhook_id !== null && disablesEndpoint(result)) {
      const reason = `the receiver answered 410 Gone to delivery ${row.delivery_id}`;
      yield* this.d.webhooks.disableSteps(row.webhook_id, reason, Math.floor(now / 1000));
      yield* this.d.deliveries.failPendingOfWebhookSteps(row.webhook_id, `webhook disabled: ${reason}`, now);
    }
    // Only an API inbox's own callback marks its message failed (not a bot's or an automation's URL).
    if (withHook && status === "failed" && row.target_key.startsWith("inbox:") && MESSAGE_KINDS.has(row.event_kind)) {
      const hook = this.d.onCallbackGaveUp(callbackOf(row), error ?? "failed");
      if (hook) yield* nested(hook);
    }
  }
}

function callbackOf(row: DeliveryRow): GaveUpCallback {
  const id = (JSON.parse(row.payload) as { id?: unknown }).id;
  return {
    deliveryId: row.delivery_id,
    accountId: row.account_id,
    inboxId: row.inbox_id!,
    eventKind: row.event_kind,
    messageId: typeof id === "number" ? id : null,
  };
}

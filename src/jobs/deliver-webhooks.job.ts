// Sends webhook deliveries. Woken right after a commit that wrote deliveries, after each finished
// attempt, and every second by the scheduler (retries that came due, and whatever was pending when the
// process died: a delivery row is only ever finished by a recorded attempt, so after kill -9 it is simply
// due again). Each attempt is re-signed with a fresh timestamp and the same delivery id.
//
// Fairness: at most `maxConcurrent` attempts in flight overall and `perTarget` per receiver, so a slow
// receiver holds a few slots for at most the timeout and never the whole pool. Order: one in flight per
// (receiver, conversation) stream, and a later delivery waits while an earlier one is pending.
import type { DeliveryRow, DeliveryStatus, WebhookDeliveriesRepo } from "../db/webhook-deliveries.repo.ts";
import type { WebhooksRepo } from "../db/webhooks.repo.ts";
import type { WriteTx } from "../db/tx.ts";
import { classifyAttempt, disablesEndpoint, nextAttemptAt } from "../domain/delivery-policy.ts";
import type { Clock } from "../lib/clock.ts";
import { errorFields, type Logger } from "../lib/logger.ts";
import { safePost, type SafePostResult } from "../lib/ssrf.ts";
import { generateSecret, signatureHeaders } from "../lib/webhook-signature.ts";

export const MAX_CONCURRENT = 32;
export const PER_TARGET = 4;
/** Bytes of a receiver's answer read and kept with the attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** An API inbox callback for a message that will not be retried again. */
export interface GaveUpCallback {
  deliveryId: string;
  accountId: number;
  inboxId: number;
  eventKind: string;
  /** The message id from the payload (`id`), as the messages feature needs it. */
  messageId: number | null;
}

/** Marks the message failed with the reason (Chatwoot: status "failed", external_error). Runs inside the delivery's transaction. */
export type OnCallbackGaveUp = (delivery: GaveUpCallback, reason: string) => void;

const MESSAGE_KINDS = new Set(["message_created", "message_updated"]);

export interface DelivererDeps {
  deliveries: WebhookDeliveriesRepo;
  webhooks: WebhooksRepo;
  writeTx: WriteTx;
  clock: Clock;
  logger: Logger;
  onCallbackGaveUp: OnCallbackGaveUp;
  random?: () => number;
}

export interface DelivererOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  maxConcurrent?: number;
  perTarget?: number;
}

type Attempt = Pick<SafePostResult, "status" | "error" | "latencyMs" | "responseBody" | "retryAfterSeconds">;

export class WebhookDeliverer {
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly perTargetCount = new Map<string, number>();
  private readonly maxConcurrent: number;
  private readonly perTarget: number;
  private wakeScheduled = false;
  private stopping = false;

  constructor(private readonly d: DelivererDeps, private readonly opts: DelivererOptions) {
    this.maxConcurrent = opts.maxConcurrent ?? MAX_CONCURRENT;
    this.perTarget = opts.perTarget ?? PER_TARGET;
  }

  /** Pump soon (coalesced); safe to call inside a transaction, as the pump runs after it. */
  wake(): void {
    if (this.wakeScheduled || this.stopping) return;
    this.wakeScheduled = true;
    setTimeout(() => {
      this.wakeScheduled = false;
      this.pump();
    }, 0);
  }

  /** Starts due deliveries in the free slots; returns how many it started. Never throws. */
  pump(): number {
    let started = 0;
    try {
      // A receiver can reach its cap part-way through a batch; then ask again without it.
      for (let round = 0; round < 8 && !this.stopping; round++) {
        const free = this.maxConcurrent - this.inFlight.size;
        if (free <= 0) break;
        const busyTargets = [...this.perTargetCount].filter(([, n]) => n >= this.perTarget).map(([k]) => k);
        const rows = this.d.deliveries.due({ nowMs: this.d.clock.nowMs(), busyIds: [...this.inFlight.keys()], busyTargets, limit: free });
        let skipped = false;
        for (const row of rows) {
          if ((this.perTargetCount.get(row.target_key) ?? 0) >= this.perTarget) skipped = true;
          else {
            this.start(row);
            started++;
          }
        }
        if (!skipped) break;
      }
    } catch (error) {
      this.d.logger.error("webhook delivery pump failed", errorFields(error));
    }
    return started;
  }

  /** Tests and benchmarks: send everything due now, and wait until nothing is in flight. */
  async drain(): Promise<void> {
    for (;;) {
      this.pump();
      if (this.inFlight.size === 0) return;
      await Promise.race(this.inFlight.values());
    }
  }

  /** SIGTERM: start nothing new, let the attempts under way finish and be recorded. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  private start(row: DeliveryRow): void {
    this.perTargetCount.set(row.target_key, (this.perTargetCount.get(row.target_key) ?? 0) + 1);
    const p = this.attempt(row)
      .catch((error) => this.d.logger.error("webhook delivery attempt failed", { delivery_id: row.delivery_id, ...errorFields(error) }))
      .finally(() => {
        this.inFlight.delete(row.id);
        const n = (this.perTargetCount.get(row.target_key) ?? 1) - 1;
        if (n <= 0) this.perTargetCount.delete(row.target_key);
        else this.perTargetCount.set(row.target_key, n);
        this.wake();
      });
    this.inFlight.set(row.id, p);
  }

  private async attempt(row: DeliveryRow): Promise<void> {
    const target = this.targetOf(row);
    if (target === null) return; // the webhook was deleted with its deliveries
    const startedAt = this.d.clock.nowMs();
    let result: Attempt;
    if ("refused" in target) {
      result = { status: null, error: target.refused, latencyMs: 0, responseBody: "", retryAfterSeconds: null };
    } else {
      const headers = signatureHeaders(target.secret, row.delivery_id, row.payload, startedAt / 1000);
      result = await safePost(target.url, {
        body: row.payload,
        headers,
        timeoutMs: this.opts.timeoutMs,
        maxResponseBytes: RESPONSE_EXCERPT_BYTES,
        allowPrivate: this.opts.allowPrivate,
      });
    }
    this.settle(row.id, startedAt, result, "refused" in target);
  }

  /** Where and with which key to send, read at attempt time (a rotated secret or changed URL applies to retries). */
  private targetOf(row: DeliveryRow): { url: string; secret: string } | { refused: string } | null {
    if (row.webhook_id !== null) {
      const w = this.d.webhooks.signing(row.webhook_id);
      if (!w) return null;
      if (w.disabled_reason !== null) return { refused: `webhook disabled: ${w.disabled_reason}` };
      return { url: row.target_url, secret: w.secret };
    }
    const inbox = row.inbox_id === null ? null : this.d.webhooks.apiInboxCallback(row.account_id, row.inbox_id);
    if (!inbox?.webhook_url) return { refused: "the inbox no longer exists or has no webhook_url" };
    let secret = inbox.webhook_secret;
    if (secret === null) {
      secret = generateSecret();
      this.d.writeTx(() => this.d.webhooks.setInboxSecret(inbox.id, secret!));
    }
    return { url: inbox.webhook_url, secret };
  }

  /** Records the attempt and decides what comes next, in one transaction. */
  private settle(id: number, startedAt: number, result: Attempt, refused: boolean): void {
    const write = (withCallback: boolean) =>
      this.d.writeTx(() => {
        const row = this.d.deliveries.byId(id);
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
        this.d.deliveries.insertAttempt({
          delivery_id: id,
          attempt: attempts,
          started_at_ms: startedAt,
          status_code: result.status,
          latency_ms: result.latencyMs,
          error,
          response_excerpt: result.responseBody === "" ? null : result.responseBody,
        });
        this.d.deliveries.finish(id, {
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
          this.d.webhooks.disable(row.webhook_id, reason, Math.floor(now / 1000));
          this.d.deliveries.failPendingOfWebhook(row.webhook_id, `webhook disabled: ${reason}`, now);
        }
        if (withCallback && status === "failed" && row.webhook_id === null && MESSAGE_KINDS.has(row.event_kind)) {
          this.d.onCallbackGaveUp(callbackOf(row), error ?? "failed");
        }
      });
    try {
      write(true);
    } catch (error) {
      // A failing callback hook must not roll back the attempt forever (the request would be re-sent each
      // second): record the outcome without it.
      this.d.logger.error("webhook callback failure hook failed; recording the attempt without it", { delivery_id: id, ...errorFields(error) });
      write(false);
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

// Sends webhook deliveries. Woken right after a commit that wrote deliveries, after each finished
// attempt, and every second by the scheduler (retries that came due, and whatever was pending when the
// process died: a delivery row is only ever finished by a recorded attempt, so after kill -9 it is simply
// due again). Each attempt is re-signed with a fresh timestamp and the same delivery id.
//
// Fairness: at most `maxConcurrent` requests in flight overall and `perTarget` per receiver, so a slow
// receiver holds a few slots for at most the timeout and never the whole pool. Order: one in flight per
// (receiver, conversation) stream: a later delivery is stored `blocked` while an earlier one is pending
// and freed when that one finishes, so only stream heads are ever read here.
//
// Several processes (PostgreSQL): every process sends, each delivery under a claim on its stream
// (src/lib/lease.ts WorkClaims), so a stream's deliveries go one process at a time, in order, and
// none twice. The limits above are per process.
//
// On PostgreSQL its reads go to the read pool and its writes are awaited bodies (writeTx.steps), so
// the process serves requests meanwhile; one pump runs at a time (a wake during one runs another after
// it), so nothing it reads is started twice. The claims are awaited too (a connection of their own).
import { SOLE_CLAIMS, type WorkClaims } from "../lib/lease.ts";
import type { DeliveryRow } from "../db/webhook-deliveries.repo.ts";
import { readSoon } from "../db/reads.ts";
import { errorFields } from "../lib/logger.ts";
import { coalescedWake, drainInFlight } from "../lib/pump.ts";
import { safePost } from "../lib/ssrf.ts";
import type { AgentBotsRepo } from "../db/agent-bots.repo.ts";
import { HEADER_DELIVERY, HEADER_SW_ID, signatureHeaders } from "../lib/webhook-signature.ts";
import { deliveryTarget } from "./delivery-targets.ts";
import { AttemptRecorder, type AttemptResult, type RecorderDeps } from "./webhook-attempts.ts";

export type { GaveUpCallback, OnCallbackGaveUp } from "./webhook-attempts.ts";

export const MAX_CONCURRENT = 32;
export const PER_TARGET = 4;
/** Bytes of a receiver's answer read and kept with the attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** The recorder's dependencies, and the bots whose URL and secret a bot delivery uses. */
export type DelivererDeps = RecorderDeps & {
  agentBots: AgentBotsRepo;
  /** The open write group's commit, if one is open (tx.ts Commits.settled): the pump reads after it. */
  committed?: () => Promise<void> | null;
};

export interface DelivererOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  maxConcurrent?: number;
  perTarget?: number;
  /** Claims on delivery streams, where several processes send (src/db/postgres/work-claims.ts). */
  claims?: WorkClaims;
}

export class WebhookDeliverer {
  /** Attempts started and not yet recorded: never started again meanwhile (still pending in the table). */
  private readonly inFlight = new Map<number, Promise<void>>();
  /** Of those, the ones whose request is under way: the limits count these. */
  private sending = 0;
  private readonly sendingTo = new Map<string, number>();
  /** Attempts started and not yet recorded, per receiver. */
  private readonly startedFor = new Map<string, number>();
  private readonly maxConcurrent: number;
  private readonly perTarget: number;
  private readonly recorder: AttemptRecorder;
  private readonly claims: WorkClaims;
  private rotation = 0;
  private stopping = false;
  /** The pump under way, and whether another was asked for meanwhile. */
  private pumping: Promise<number> | null = null;
  private again = false;

  constructor(
    private readonly d: DelivererDeps,
    private readonly opts: DelivererOptions,
  ) {
    this.maxConcurrent = opts.maxConcurrent ?? MAX_CONCURRENT;
    this.perTarget = opts.perTarget ?? PER_TARGET;
    this.recorder = new AttemptRecorder(d);
    this.claims = opts.claims ?? SOLE_CLAIMS;
  }

  /** Pump soon (coalesced); safe to call inside a transaction, as the pump runs after it. */
  readonly wake = coalescedWake(
    () => this.pump(),
    () => this.stopping,
  );

  /**
   * Starts due deliveries in the free slots; answers how many it started. Never rejects. Asked for while
   * one runs, one more runs after it: what the first read may predate the wake.
   */
  pump(): Promise<number> {
    if (this.pumping) {
      this.again = true;
      return this.pumping;
    }
    const run = async () => {
      let started = 0;
      do {
        this.again = false;
        started += await this.pumpOnce();
      } while (this.again && !this.stopping);
      return started;
    };
    const pumping = run().finally(() => {
      this.pumping = null;
    });
    this.pumping = pumping;
    return pumping;
  }

  /** One pass: picks due stream heads for the free slots, then starts them together. */
  private async pumpOnce(): Promise<number> {
    if (this.stopping || this.sending >= this.maxConcurrent) return 0;
    const chosen: DeliveryRow[] = [];
    try {
      await this.choose(chosen);
    } catch (error) {
      this.d.logger.error("webhook delivery pump failed", errorFields(error));
    }
    // Started in one turn, after the reads: each attempt's bookkeeping (in flight, per receiver)
    // then holds from the same moment, whatever the reads awaited.
    for (const row of chosen) {
      if (this.stopping) this.releaseClaim(row);
      else this.start(row);
    }
    return this.stopping ? 0 : chosen.length;
  }

  private async choose(chosen: DeliveryRow[]): Promise<void> {
    // Its reads see committed rows (PostgreSQL's read pool): deliveries of the open group come after
    // its commit. On SQLite too, so that nothing a rollback takes back is ever sent.
    await this.d.committed?.()?.catch(() => {});
    const now = this.d.clock.nowMs();
    const used = () => this.sending + chosen.length;
    // Heads other processes are sending are still pending too: with shared claims, look past them.
    const lookahead = this.claims.shared ? this.maxConcurrent : 0;
    const targets = await readSoon(this.d.deliveries.readReadyTargets());
    // Start at a different receiver each time so that, when the pool is the limit, none is always last.
    const offset = targets.length === 0 ? 0 : this.rotation++ % targets.length;
    for (let i = 0; i < targets.length && used() < this.maxConcurrent && !this.stopping; i++) {
      const target = targets[(i + offset) % targets.length]!;
      const room = Math.min(this.perTarget - (this.sendingTo.get(target) ?? 0), this.maxConcurrent - used());
      if (room <= 0) continue;
      let taken = 0;
      // Heads already started are still pending: ask for enough to see past them.
      const seen = room + (this.startedFor.get(target) ?? 0) + lookahead;
      for (const listed of await readSoon(this.d.deliveries.readDueFor(target, now, seen))) {
        if (taken >= room || this.stopping) break;
        if (this.inFlight.has(listed.id)) continue;
        const row = await this.claimed(listed, now);
        if (!row) continue;
        chosen.push(row);
        taken++;
      }
    }
  }

  /** Tests and benchmarks: send everything due now, and wait until nothing is in flight. */
  drain(): Promise<void> {
    return drainInFlight(() => this.pump(), this.inFlight);
  }

  /** SIGTERM: start nothing new, let the attempts under way finish and be recorded. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.pumping;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Safety net run by the job loop: a stream head left blocked would stall its conversation forever. */
  async repairStreams(): Promise<void> {
    const n = await this.d.writeTx.steps(() => this.d.deliveries.repairStreamsSteps());
    if (n > 0) this.d.logger.warn("webhook delivery streams unblocked", { count: n });
  }

  /** Requests under way (attempts being recorded are not counted). */
  get inFlightCount(): number {
    return this.sending;
  }

  /**
   * The delivery, claimed for this process, as it stands now; null when another process holds its
   * stream, or has sent it since the list was read (so it is read again under the claim).
   */
  private async claimed(listed: DeliveryRow, now: number): Promise<DeliveryRow | null> {
    if (!this.claims.shared) return listed;
    const key = streamKey(listed);
    if (!(await this.claims.claim(key))) return null;
    let row: DeliveryRow | null = null;
    try {
      // Committed rows are enough: a process releases a claim only after its outcome has committed.
      row = await readSoon(this.d.deliveries.readStillDue(listed.id, now));
      return row;
    } finally {
      if (!row) this.releaseClaim(listed);
    }
  }

  /** After the outcome is committed: a process claiming the stream next reads it as finished. */
  private releaseClaim(row: DeliveryRow): void {
    if (!this.claims.shared) return;
    this.claims.release(streamKey(row)).catch((error) => {
      // Held until the process's connection closes: the stream waits, nothing is sent twice.
      this.d.logger.error("webhook stream claim not released", { delivery_id: row.delivery_id, ...errorFields(error) });
    });
  }

  /**
   * A request's slot is free once the receiver has answered, before the outcome is recorded: on
   * PostgreSQL the record waits its turn among the requests' writes, and the receiver would wait
   * with it. The stream's next delivery still waits for the record (it stays blocked until then).
   */
  private start(row: DeliveryRow): void {
    const key = row.target_key;
    this.sending++;
    count(this.sendingTo, key, 1);
    count(this.startedFor, key, 1);
    let answered = false;
    const answer = () => {
      if (answered) return;
      answered = true;
      this.sending--;
      count(this.sendingTo, key, -1);
      this.wake();
    };
    const p = this.attempt(row, answer)
      .catch((error) => this.recordCrash(row, error))
      .finally(() => {
        answer();
        this.inFlight.delete(row.id);
        count(this.startedFor, key, -1);
        this.releaseClaim(row);
        this.wake();
      });
    this.inFlight.set(row.id, p);
  }

  private async attempt(row: DeliveryRow, answered: () => void): Promise<void> {
    const target = await deliveryTarget(this.d, row);
    if (target === null) return; // the webhook was deleted with its deliveries
    const startedAt = this.d.clock.nowMs();
    let result: AttemptResult;
    if ("refused" in target) {
      result = { status: null, error: target.refused, latencyMs: 0, responseBody: "", retryAfterSeconds: null };
    } else {
      // Automation rules' webhooks have no webhook record and so no secret: unsigned, as in Chatwoot.
      const headers =
        target.secret === null
          ? { [HEADER_DELIVERY]: row.delivery_id, [HEADER_SW_ID]: row.delivery_id }
          : signatureHeaders(target.secret, row.delivery_id, row.payload, startedAt / 1000);
      result = await safePost(target.url, {
        body: row.payload,
        headers,
        timeoutMs: this.opts.timeoutMs,
        maxResponseBytes: RESPONSE_EXCERPT_BYTES,
        allowPrivate: this.opts.allowPrivate,
      });
    }
    answered();
    await this.recorder.record({ id: row.id, startedAt, result, refused: "refused" in target });
  }

  /**
   * An attempt that threw (a bug, a database error) is recorded as a retryable failure, so the backoff
   * applies; left pending and due, the delivery would be restarted at once, over and over.
   */
  private async recordCrash(row: DeliveryRow, error: unknown): Promise<void> {
    this.d.logger.error("webhook delivery attempt failed", { delivery_id: row.delivery_id, ...errorFields(error) });
    const message = error instanceof Error ? error.message : String(error);
    const result = {
      status: null,
      error: `internal error: ${message}`,
      latencyMs: 0,
      responseBody: "",
      retryAfterSeconds: null,
    };
    await this.recorder.record({ id: row.id, startedAt: this.d.clock.nowMs(), result, refused: false });
  }
}

function count(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}

/** A delivery's stream: its receiver and conversation; a delivery outside any order is its own. */
function streamKey(row: Pick<DeliveryRow, "id" | "target_key" | "order_key">): string {
  return row.order_key === null ? `${row.target_key}#${row.id}` : `${row.target_key}\n${row.order_key}`;
}

// The loops a work pump needs (webhook deliveries, email replies, password-reset mail): a wake-up
// that coalesces, a drain that pumps until nothing is in flight, and an outbox sender's loop.

import { type Lease, SOLE_LEASE } from "./lease.ts";

/**
 * Returns a wake function that runs `pump` soon, once, however often it is called before then; safe
 * to call inside a transaction, as the pump runs after it. setImmediate, not setTimeout(0): Bun clamps
 * the latter to ~1 ms, which would cap a serial stream at ~1,000 a second.
 */
export function coalescedWake(pump: () => void, stopped: () => boolean): () => void {
  let scheduled = false;
  return () => {
    if (scheduled || stopped()) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      pump();
    });
  };
}

/** Tests and benchmarks: pump everything due now, and wait until nothing is in flight. */
export async function drainInFlight(pump: () => void, inFlight: Map<unknown, Promise<void>>): Promise<void> {
  for (;;) {
    pump();
    if (inFlight.size === 0) return;
    await Promise.race(inFlight.values());
  }
}

export interface OutboxPumpOptions<Row> {
  /** Rows whose send is due now, at most `limit`. */
  due: (limit: number) => Row[];
  /** One send at a time per key (a row being sent is not started again). */
  key: (row: Row) => number;
  /** Sends one row; records its own result. A throw is logged, and the row waits for its retry time. */
  send: (row: Row) => Promise<void>;
  concurrency: number;
  /** Only the lease's holder sends (several processes: lease.ts). */
  lease?: Lease;
  /** Logs a send or a pump that crashed (a bug, not a refused send). */
  crashed: (error: unknown, row: Row | null) => void;
}

/**
 * The loop of an outbox sender (email replies, password-reset mail): on each wake, starts the due
 * rows up to `concurrency` sends in flight, and wakes again as each finishes, so a backlog drains
 * without waiting for the next tick of the job that also calls pump().
 */
export class OutboxPump<Row> {
  private readonly inFlight = new Map<number, Promise<void>>();
  private stopping = false;

  constructor(private readonly o: OutboxPumpOptions<Row>) {}

  readonly wake = coalescedWake(
    () => this.pump(),
    () => this.stopping,
  );

  pump(): void {
    if (this.stopping || !(this.o.lease ?? SOLE_LEASE).held) return;
    try {
      for (const row of this.o.due(this.o.concurrency * 2)) {
        if (this.inFlight.size >= this.o.concurrency) break;
        const key = this.o.key(row);
        if (this.inFlight.has(key)) continue;
        const p = this.o
          .send(row)
          .catch((error) => this.o.crashed(error, row))
          .finally(() => {
            this.inFlight.delete(key);
            this.wake();
          });
        this.inFlight.set(key, p);
      }
    } catch (error) {
      this.o.crashed(error, null);
    }
  }

  /** Tests: send everything due now and wait until nothing is in flight. */
  drain(): Promise<void> {
    return drainInFlight(() => this.pump(), this.inFlight);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.inFlight.values()]);
  }
}

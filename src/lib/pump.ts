// The loops a work pump needs (webhook deliveries, email replies, password-reset mail): a wake-up
// that coalesces, a drain that pumps until nothing is in flight, and an outbox sender's loop.

import { type Lease, SOLE_LEASE } from "./lease.ts";
import { errorFields, type Logger } from "./logger.ts";

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
export async function drainInFlight(pump: () => unknown, inFlight: Map<unknown, Promise<void>>): Promise<void> {
  for (;;) {
    await pump();
    if (inFlight.size === 0) return;
    await Promise.race(inFlight.values());
  }
}

export interface OutboxPumpOptions<Row> {
  /** What is sent, for the log: "<name> crashed", "<name> pump failed". */
  name: string;
  /** Rows whose send is due now, at most `limit` (read on PostgreSQL's read pool, awaited). */
  due: (limit: number) => Row[] | Promise<Row[]>;
  /**
   * The column naming a row: one send at a time per value (a row being sent is not started again);
   * logged with a crash.
   */
  keyField: { [K in keyof Row]: Row[K] extends number ? K : never }[keyof Row] & string;
  /** The key's name in the log, where the column's own name says too little ("id"). */
  logKey?: string;
  /** Sends one row; records its own result. A throw is logged, and the row waits for its retry time. */
  send: (row: Row) => Promise<void>;
  concurrency: number;
  /** Only the lease's holder sends (several processes: lease.ts). */
  lease?: Lease;
  /** Where a send or a pump that crashed (a bug, not a refused send) is logged. */
  logger: Logger;
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

  /**
   * Starts what is due. Two pumps may overlap while their reads are awaited: each starts its rows in
   * one synchronous pass, so the second finds the first's in flight and skips them.
   */
  pump(): void | Promise<void> {
    if (this.stopping || !(this.o.lease ?? SOLE_LEASE).held) return;
    let due: Row[] | Promise<Row[]>;
    try {
      due = this.o.due(this.o.concurrency * 2);
    } catch (error) {
      return this.crashed(error, null);
    }
    if (!(due instanceof Promise)) return this.start(due);
    return due.then(
      (rows) => this.start(rows),
      (error) => this.crashed(error, null),
    );
  }

  private start(rows: Row[]): void {
    if (this.stopping) return;
    try {
      for (const row of rows) {
        if (this.inFlight.size >= this.o.concurrency) break;
        const key = row[this.o.keyField] as number;
        if (this.inFlight.has(key)) continue;
        const p = this.o
          .send(row)
          .catch((error) => this.crashed(error, row))
          .finally(() => {
            this.inFlight.delete(key);
            this.wake();
          });
        this.inFlight.set(key, p);
      }
    } catch (error) {
      this.crashed(error, null);
    }
  }

  private crashed(error: unknown, row: Row | null): void {
    const { name, keyField, logKey = keyField } = this.o;
    this.o.logger.error(row ? `${name} crashed` : `${name} pump failed`, {
      ...(row ? { [logKey]: row[keyField] } : {}),
      ...errorFields(error),
    });
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

/**
 * An outbox's sender (email replies, notification and reset mail, mobile pushes): its pump, and the
 * calls the job loop and the tests make on it. A sender says what is due and how one row is sent.
 */
export abstract class OutboxSender<Row> {
  private readonly loop: OutboxPump<Row>;

  constructor(options: Omit<OutboxPumpOptions<Row>, "send">) {
    this.loop = new OutboxPump({ ...options, send: (row) => this.send(row) });
  }

  /** Sends one row and records its result (see OutboxPumpOptions.send). */
  protected abstract send(row: Row): Promise<void>;

  readonly wake = (): void => this.loop.wake();
  readonly pump = (): void | Promise<void> => this.loop.pump();
  /** Tests: send everything due now and wait until nothing is in flight. */
  readonly drain = (): Promise<void> => this.loop.drain();
  readonly stop = (): Promise<void> => this.loop.stop();
}

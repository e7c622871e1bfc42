// Transaction bodies awaited on PostgreSQL (writeTx.steps, tx.ts). A body written as a Reads
// (reads.ts) yields its statements; here each is awaited on a connection of its own
// (postgres/held-connection.ts), so the process serves other requests while PostgreSQL answers,
// where a body run in place through the synchronous bridge holds the whole process for each one.
//
// One at a time, in arrival order. The bodies waiting when one ends share its transaction, each in a
// savepoint of its own (a failing body undoes only itself), and the group commits when none is
// left waiting (or after MAX_GROUP): PostgreSQL's commit, like SQLite's, costs more than a small
// write. Its BEGIN takes the writers' lock, as the bridge's does, so the two never write at once: an
// in-place write's group must commit before an awaited group begins, and while one is open no
// in-place group may begin (its BEGIN would block this thread on the lock this thread's own awaited
// body holds). A promise-form write that arrives meanwhile waits its turn in the same queue; an
// in-place one (`writeTx.now` outside any body) is refused (tx.ts).
import { type Reads, readHeld } from "./reads.ts";
import type { TxHooks } from "./tx.ts";
import { BEGIN_WRITING, COMMIT_AND_TELL, type PostgresDatabase } from "./postgres/database.ts";

/**
 * The group's COMMIT was refused (a deferred constraint, a serialization failure): nothing of any of
 * its bodies stays, and their requests answer 503 "try again" as SQLite's do (src/http/errors.ts).
 */
export class CommitRefusedError extends Error {
  readonly commitRefused = true;
  constructor(cause: unknown) {
    super(`the group's commit was refused: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** Bodies in one transaction at most, so that a steady stream of writes still commits. */
const MAX_GROUP = 64;

interface Job {
  /** An awaited body; or, with `inPlace`, a synchronous one that waited for the awaited ones before it. */
  steps?: () => Reads<unknown>;
  inPlace?: () => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export class AwaitedWrites {
  private readonly queue: Job[] = [];
  /** Set from the first job queued until the queue is empty and the last group committed. */
  private draining = false;
  /** Set while the queue's in-place jobs run, which may open the bridge's group. */
  private inPlaceTurn = false;

  constructor(
    private readonly db: PostgresDatabase,
    private readonly hooks: TxHooks,
    /** The bridge's open group's commit, if one is open (tx.ts). */
    private readonly bridgeSettled: () => Promise<void> | null,
  ) {}

  /** Whether an in-place write must wait (or, unable to, be refused): an awaited one holds the turn. */
  get busy(): boolean {
    return this.draining && !this.inPlaceTurn;
  }

  steps<T>(make: () => Reads<T>): Promise<T> {
    return this.enqueue({ steps: make });
  }

  /** A synchronous body that arrived while awaited ones wait or run: it runs in order after them. */
  inPlace<T>(fn: () => T): Promise<T> {
    return this.enqueue({ inPlace: fn });
  }

  private enqueue<T>(job: Omit<Job, "resolve" | "reject">): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ ...job, resolve: resolve as (v: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        if (this.queue[0]!.inPlace) this.runInPlace();
        // Both take the writers' lock: the bridge's group (opened just now, or before the queue
        // began) commits first. Its failure is its own requests' to hear.
        await this.bridgeSettled()?.catch(() => {});
        if (this.queue.length > 0 && this.queue[0]!.steps) await this.runGroup();
      }
    } finally {
      this.draining = false;
    }
  }

  /** The in-place jobs at the head of the queue, run now (they join one bridge group, as usual). */
  private runInPlace(): void {
    this.inPlaceTurn = true;
    try {
      while (this.queue[0]?.inPlace) {
        const job = this.queue.shift()!;
        try {
          job.resolve(job.inPlace!());
        } catch (error) {
          job.reject(error);
        }
      }
    } finally {
      this.inPlaceTurn = false;
    }
  }

  /** The awaited jobs at the head of the queue (and those arriving meanwhile), in one transaction. */
  private async runGroup(): Promise<void> {
    const held = this.db.held;
    // Bodies done and waiting for the commit; and the one under way, until it has settled.
    const done: { job: Job; value: unknown }[] = [];
    let current: Job | null = null;
    let committing = false;
    try {
      await held.script(BEGIN_WRITING);
      while (this.queue[0]?.steps && done.length < MAX_GROUP) {
        current = this.queue.shift()!;
        // A savepoint only where others' writes must survive this body's failure.
        const alone = done.length === 0;
        if (!alone) await held.script("SAVEPOINT parley_held");
        let value: unknown;
        try {
          value = await readHeld(current.steps!(), this.db);
        } catch (error) {
          // Undone before the caller hears of it, as a commit comes before its answer.
          await held.script(alone ? "ROLLBACK" : "ROLLBACK TO SAVEPOINT parley_held; RELEASE SAVEPOINT parley_held");
          if (alone) this.hooks.afterRollback();
          current.reject(error);
          current = null;
          if (alone) return;
          continue;
        }
        if (!alone) await held.script("RELEASE SAVEPOINT parley_held");
        done.push({ job: current, value });
        current = null;
      }
      this.hooks.beforeCommit?.();
      committing = true;
      await held.script(COMMIT_AND_TELL);
    } catch (caught) {
      // The transaction itself failed (the connection lost, the commit refused): nothing of it stays.
      await held.script("ROLLBACK").catch(() => {});
      this.hooks.afterRollback();
      // A lost connection stays what it is (a 503 of its own); a refusal is the group's.
      const lost = (caught as { databaseUnavailable?: unknown }).databaseUnavailable === true;
      const error = committing && !lost ? new CommitRefusedError(caught) : caught;
      current?.reject(error);
      for (const { job } of done) job.reject(error);
      return;
    }
    this.hooks.afterCommit();
    for (const { job, value } of done) job.resolve(value);
  }
}

// Runs durable listeners over the outbox. Each listener has a cursor (the last event it finished);
// after a commit the bus is woken, and the job loop also drains it every second, so events written
// before a crash are handled after the restart. Delivery to listeners is at-least-once: a crash
// between handling and saving the cursor replays that batch.
import type { Lease } from "../lib/lease.ts";
import type { Database } from "bun:sqlite";
import { errorFields, type Logger } from "../lib/logger.ts";
import { type EventRow, eventFromRow, EventsRepo } from "../db/events.repo.ts";
import { ListenerCursorsRepo } from "../db/listener-cursors.repo.ts";
import { readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { StoredEvent } from "../shared/event-types.ts";

export interface DurableListener {
  /** Stable name: the cursor is stored under it. */
  name: string;
  handle(event: StoredEvent): void | Promise<void>;
  /**
   * Settles what handle() left to commit (a listener that lets a batch's writes share one commit),
   * awaited before the cursor moves past them; a failure replays the batch. Writes in `open`, the
   * write group still open, need no wait: the cursor's save joins that group, so both commit or
   * neither does.
   */
  flush?(open: Promise<void> | null): Promise<void>;
}

const BATCH = 200;
/** After this many failures on one event the listener skips it, so one poison event cannot stall it. */
export const MAX_EVENT_FAILURES = 5;

interface ListenerState {
  listener: DurableListener;
  running: Promise<void> | null;
  again: boolean;
  failures: Map<number, number>;
}

export class EventBus {
  private readonly states: ListenerState[] = [];
  private readonly events: EventsRepo;
  private readonly cursors: ListenerCursorsRepo;
  private scheduled = false;
  /**
   * Batches read since the last commit that wrote events, by the cursor they follow. The listeners
   * usually stand at one cursor, and each read the same batch, payloads and all (the costliest
   * statement of a message in `test/bench/write-floor.ts`'s replay); they share one read. Only
   * while no event was written since: `wake()` (every such commit of this process, and PostgreSQL's
   * notices of others') and each drain's start drop them.
   */
  private readonly batches = new Map<number, EventRow[] | Promise<EventRow[]>>();

  constructor(
    db: Database,
    private readonly logger: Logger,
    /** Only the lease's holder runs the listeners (several processes: src/lib/lease.ts). */
    private readonly lease: Lease,
    /**
     * Saves a cursor the way every write is made: inside a turn's shared read snapshot a lone
     * statement would turn the snapshot into a write (src/db/tx.ts).
     */
    private readonly writeTx: WriteTx,
    /**
     * The open write group's commit, if one is open (tx.ts Commits.settled): a drain reads after it,
     * since its reads see committed rows on PostgreSQL.
     */
    private readonly committed: () => Promise<void> | null = () => null,
  ) {
    this.events = new EventsRepo(db);
    this.cursors = new ListenerCursorsRepo(db);
  }

  /**
   * A listener registered for the first time starts after the newest event, so adding a listener
   * to an existing database does not replay its whole history.
   */
  register(listener: DurableListener): void {
    if (this.cursors.get(listener.name) === null) this.cursors.set(listener.name, this.events.maxId());
    this.states.push({ listener, running: null, again: false, failures: new Map() });
  }

  /** Called after a commit that wrote events: drain soon, once, however many commits came first. */
  wake(): void {
    this.batches.clear();
    if (this.scheduled || this.states.length === 0) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      // A database error (PostgreSQL gone for a moment) is logged; the every-second drain retries.
      this.drain().catch((error) => this.logger.error("event listeners failed", errorFields(error)));
    }, 0);
  }

  /** Runs every listener until it has caught up with the outbox. */
  async drain(): Promise<void> {
    if (!this.lease.held) return;
    await this.committed()?.catch(() => {});
    this.batches.clear();
    await Promise.all(this.states.map((s) => this.run(s)));
  }

  private run(state: ListenerState): Promise<void> {
    if (state.running) {
      state.again = true;
      return state.running;
    }
    state.running = (async () => {
      try {
        do {
          state.again = false;
          try {
            while (this.lease.held && (await this.step(state))) {
              /* keep going until a batch comes back short, or the lease is gone */
            }
          } catch (error) {
            // A drain that joined this run while its reads were on their way gets a try of its own.
            if (!state.again) throw error;
          }
        } while (state.again);
      } finally {
        // Also after a failed read of the cursor or the events: the next drain starts afresh.
        state.running = null;
      }
    })();
    return state.running;
  }

  /** Handles one batch; returns true when there may be more to do. */
  private async step(state: ListenerState): Promise<boolean> {
    const { listener } = state;
    // Committed rows: awaited on PostgreSQL's read pool, so the process serves requests meanwhile.
    const cursor = (await readSoon(this.cursors.readGet(listener.name)))!;
    const rows = await this.batchAfter(cursor);
    let done = cursor;
    try {
      for (const row of rows) {
        // The lease can go between two events (PostgreSQL restarted and this process's session with
        // it): another process may be running the listeners from the saved cursor by now.
        if (!this.lease.held) break;
        const event = eventFromRow(row);
        try {
          await listener.handle(event);
        } catch (error) {
          const n = (state.failures.get(event.id) ?? 0) + 1;
          state.failures.set(event.id, n);
          if (n < MAX_EVENT_FAILURES) throw error;
          this.logger.error("listener skipped an event after repeated failures", {
            listener: listener.name,
            event_id: event.id,
            ...errorFields(error),
          });
        }
        state.failures.delete(event.id);
        done = event.id;
      }
    } catch (error) {
      this.logger.warn("listener failed; will retry", {
        listener: listener.name,
        after_event_id: done,
        ...errorFields(error),
      });
      await this.advance(listener, cursor, done);
      return false;
    }
    return (await this.advance(listener, cursor, done)) && rows.length === BATCH && done === rows.at(-1)!.id;
  }

  private batchAfter(cursor: number): EventRow[] | Promise<EventRow[]> {
    const shared = this.batches.get(cursor);
    if (shared) return shared;
    const batch = readSoon(this.events.readBatchAfter(cursor, BATCH)); // SQLite: in place, or throws
    // A listener far behind the others shares nothing: at most one batch per listener is kept.
    if (this.batches.size >= this.states.length) this.batches.delete(this.batches.keys().next().value!);
    this.batches.set(cursor, batch);
    // A failed read on the pool is each listener's to retry, not to share.
    if (batch instanceof Promise)
      batch.catch(() => {
        if (this.batches.get(cursor) === batch) this.batches.delete(cursor);
      });
    return batch;
  }

  /**
   * Moves the listener's cursor to `done` once the writes it left to commit are committed; if they
   * were not, leaves it, and the batch is replayed. Returns whether it moved on.
   */
  private async advance(listener: DurableListener, cursor: number, done: number): Promise<boolean> {
    try {
      await listener.flush?.(this.committed());
    } catch (error) {
      this.logger.warn("listener's writes were not committed; will retry", {
        listener: listener.name,
        ...errorFields(error),
      });
      return false;
    }
    if (done !== cursor) await this.save(listener.name, done);
    return true;
  }

  private async save(name: string, id: number): Promise<void> {
    // An awaited body on PostgreSQL, a write of the open group on SQLite (where it joins the
    // listener's own writes of the batch: both commit or neither).
    await this.writeTx.steps(() => this.cursors.setSteps(name, id));
    // Its promise answers before the write group commits; the next batch reads the cursor on the
    // read pool (committed rows), so it waits for that commit.
    await this.committed()?.catch(() => {});
  }

  /** Tests: the cursor of a listener. */
  cursorOf(name: string): number {
    return this.cursors.get(name) ?? 0;
  }
}

// The hub's live stream: after each commit that wrote events it wakes, reads the new events once
// from its cursor (every account's, in id order), and hands each connection its frames in one write
// (fanout-frames.ts picks who may see what). A subscription that is replaying is skipped: its replay
// reads the table itself (replay.ts).
import { eventFromRow, type EventRow, type EventsRepo } from "../db/events.repo.ts";
import type { RealtimeRepo } from "../db/realtime.repo.ts";
import { nested, type Reads, readLater, readSoon } from "../db/reads.ts";
import { errorFields, type Logger } from "../lib/logger.ts";
import { whenReady } from "../lib/when-ready.ts";
import type { Connection, Subscription } from "./connection.ts";
import { framesForBatch } from "./fanout-frames.ts";
import type { EventFeed } from "./feed.ts";
import type { EventRenderer } from "./render.ts";
import { Audience, visible } from "./visibility.ts";

const FANOUT_BATCH = 500;

export interface LiveFanOutDeps {
  events: EventsRepo;
  realtime: RealtimeRepo;
  feed: EventFeed;
  renderer: EventRenderer;
  logger: Logger;
  /** The live subscriptions of an account (none: the account's events are skipped). */
  subscriptionsOf(accountId: number): Iterable<Subscription> | undefined;
  /** Whether anyone is subscribed at all (nobody: the cursor skips ahead without reading). */
  listening(): boolean;
  /** The hub's bounded send: false once the socket is dropped. */
  send(conn: Connection, frame: string): boolean;
  /** Runs timer work, logging instead of throwing (a promise's failure too). */
  safely(what: string, fn: () => void | Promise<void>): void;
}

export class LiveFanOut {
  /** The last event id read; null until someone subscribes. */
  private cursor: number | null = null;
  private scheduled = false;
  /** The run under way on PostgreSQL, and whether another was asked for meanwhile. */
  private reading: Promise<void> | null = null;
  private again = false;
  /** Replays waiting for the stream's first place (started()). */
  private readonly startWaiters: (() => void)[] = [];

  constructor(private readonly d: LiveFanOutDeps) {}

  /**
   * The first subscription: the stream starts at the newest committed event (on PostgreSQL read on
   * the read pool; until it lands no replay goes live, and a fan-out asked for meanwhile starts there).
   */
  begin(): void {
    if (this.cursor !== null) return;
    if (!this.d.feed.pooled) {
      this.cursor = this.d.feed.head();
      return;
    }
    (this.d.feed.headSoon() as Promise<number>).then(
      (at) => this.startAt(at),
      // The next fan-out (after any commit) starts it from the head instead.
      (error) => this.d.logger.error("realtime fan-out's start failed", errorFields(error)),
    );
  }

  /** The newest event handed out (null before the stream has a place to start from). */
  get position(): number | null {
    return this.cursor;
  }

  /** Resolves once the stream has a place to start from (at once on SQLite, where begin() reads in place). */
  started(): Promise<void> {
    if (this.cursor !== null) return Promise.resolve();
    return new Promise((resolve) => this.startWaiters.push(resolve));
  }

  private startAt(head: number): void {
    this.cursor ??= head;
    for (const wake of this.startWaiters.splice(0)) wake();
  }

  /** After a commit that wrote events: fan out soon, once, however many commits came first. */
  wake(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      this.d.safely("fan-out", () => this.run());
    }, 0);
  }

  /**
   * Reads every event after the cursor and sends each to the subscriptions that may see it. On
   * SQLite in place; on PostgreSQL the events, the viewers' memberships and the events' payloads
   * are read on the read pool (committed rows only, which is all the stream sends), and the answer
   * is a promise of the end. One run at a time: a run asked for meanwhile follows it, and the
   * promise of the one under way includes it.
   */
  run(): void | Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    const done = this.readAndSend();
    if (!(done instanceof Promise)) return;
    const reading = done.then(
      () => {
        this.reading = null;
        if (!this.again) return;
        this.again = false;
        return this.run();
      },
      (error) => {
        this.reading = null;
        this.again = false;
        throw error;
      },
    );
    this.reading = reading;
    return reading;
  }

  private readAndSend(): void | Promise<void> {
    if (this.cursor === null || !this.d.listening()) {
      // Nobody listens: skip ahead without reading events.
      return whenReady(readSoon(this.d.events.readCommittedHead()), (head) => {
        this.cursor = head;
        this.startAt(head);
      });
    }
    for (;;) {
      const rows = readSoon(this.d.events.readAfter(this.cursor, FANOUT_BATCH));
      if (rows instanceof Promise) return rows.then((read) => this.sendAwaited(read));
      this.send(rows, new Audience(this.d.realtime));
      if (rows.length < FANOUT_BATCH) return;
    }
  }

  /**
   * A batch read on the read pool: what deciding and rendering it needs is read there too, so that
   * sending it finds everything remembered. A read that fails leaves the rest to the in-place
   * forms, which report a bad event and skip it (framesForBatch) instead of stopping the stream.
   */
  private async sendAwaited(rows: EventRow[]): Promise<void> {
    const audience = new Audience(this.d.realtime);
    try {
      await readLater(this.readAhead(rows, audience));
    } catch (error) {
      this.d.logger.error("realtime read-ahead failed", errorFields(error));
    }
    this.send(rows, audience);
    if (rows.length === FANOUT_BATCH) await this.readAndSend();
  }

  /** The memberships and payloads the batch's frames will ask for, for the subscriptions there are now. */
  private *readAhead(rows: EventRow[], audience: Audience): Reads<void> {
    for (const row of rows) {
      const subs = this.d.subscriptionsOf(row.account_id);
      if (!subs) continue;
      const event = eventFromRow(row);
      let rendered = false;
      for (const sub of subs) {
        if (sub.replaying || row.id <= sub.cursor) continue;
        yield* nested(audience.readFacts(event, sub.viewer));
        if (rendered || !visible(event, sub.viewer, audience)) continue;
        yield* nested(this.d.renderer.readRender(event));
        rendered = true;
      }
    }
  }

  private send(rows: EventRow[], audience: Audience): void {
    const outbox = framesForBatch(
      rows,
      this.d.subscriptionsOf,
      audience,
      this.d.renderer,
      (id) => {
        this.cursor = id;
      },
      (id, error) => this.d.logger.error("realtime render failed", { event_id: id, ...errorFields(error) }),
    );
    for (const [conn, frames] of outbox) this.sendAll(conn, frames);
  }

  /** Live frames for one socket, in one write where the socket can cork. */
  private sendAll(conn: Connection, frames: string[]): void {
    const sendEach = () => {
      for (const frame of frames) if (!this.d.send(conn, frame)) return;
    };
    if (frames.length > 1 && conn.socket.cork) conn.socket.cork(sendEach);
    else sendEach();
  }
}

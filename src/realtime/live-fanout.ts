// The hub's live stream: after each commit that wrote events it wakes, reads the new events once
// from its cursor (every account's, in id order), and hands each connection its frames in one write
// (fanout-frames.ts picks who may see what). A subscription that is replaying is skipped: its replay
// reads the table itself (replay.ts).
import type { EventsRepo } from "../db/events.repo.ts";
import type { RealtimeRepo } from "../db/realtime.repo.ts";
import { errorFields, type Logger } from "../lib/logger.ts";
import type { Connection, Subscription } from "./connection.ts";
import { framesForBatch } from "./fanout-frames.ts";
import type { EventFeed } from "./feed.ts";
import type { EventRenderer } from "./render.ts";
import { Audience } from "./visibility.ts";

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
  /** Runs timer work, logging instead of throwing. */
  safely(what: string, fn: () => void): void;
}

export class LiveFanOut {
  /** The last event id read; null until someone subscribes. */
  private cursor: number | null = null;
  private scheduled = false;

  constructor(private readonly d: LiveFanOutDeps) {}

  /** The first subscription: the stream starts at the newest committed event. */
  begin(): void {
    this.cursor ??= this.d.feed.head();
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

  /** Reads every event after the cursor and sends each to the subscriptions that may see it. */
  run(): void {
    if (this.cursor === null || !this.d.listening()) {
      this.cursor = this.d.feed.head(); // nobody listens: skip ahead without reading events
      return;
    }
    for (;;) {
      const rows = this.d.events.after(this.cursor, FANOUT_BATCH);
      const outbox = framesForBatch(
        rows,
        this.d.subscriptionsOf,
        new Audience(this.d.realtime),
        this.d.renderer,
        (id) => {
          this.cursor = id;
        },
        (id, error) => this.d.logger.error("realtime render failed", { event_id: id, ...errorFields(error) }),
      );
      for (const [conn, frames] of outbox) this.sendAll(conn, frames);
      if (rows.length < FANOUT_BATCH) return;
    }
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

// Catching one subscription up from its cursor (a client that asked for `since`), and the resync a
// client gets when what it asks for is no longer kept. The hub's live fan-out skips a subscription
// while it replays; the replay switches it to live in the same synchronous step as reading a final
// page that was not full, so no event can fall between the two (src/realtime/hub.ts).
import { messageFrame } from "../shared/cable-frames.ts";
import type { Connection, Subscription } from "./connection.ts";
import type { EventFeed, ResyncData } from "./feed.ts";
import { renderedJson } from "./render.ts";

export interface ReplayDeps {
  feed: EventFeed;
  /** Events read per page. */
  pageSize: number;
  /** The replay waits for the socket to drain while more than this many bytes are unsent. */
  pauseAboveBytes: number;
  /** The hub's send: false when the socket is gone (or was just dropped). */
  send(conn: Connection, data: string): boolean;
  /** The newest event the live stream has handed out (null before it has a place to start from). */
  liveCursor(): number | null;
  /** Resolves once liveCursor() is not null. */
  liveStarted(): Promise<void>;
}

/**
 * Sends everything after the cursor, page by page, waiting whenever the socket's buffer is half full.
 * On SQLite each page is read in place, so the last one is read and the subscription switched to
 * live in one synchronous step. On PostgreSQL pages are read on the read pool, and the live stream
 * may hand out newer events (skipping this subscription) while one is on its way: the switch waits
 * until a page that was not full reached at least what the live stream has handed out.
 */
export async function replay(sub: Subscription, d: ReplayDeps): Promise<void> {
  const { conn } = sub;
  const here = () => conn.subs.get(sub.identifier) === sub;
  while (here()) {
    const checking = d.feed.resyncSoon(sub.cursor);
    const gone = checking instanceof Promise ? await checking : checking;
    if (!here()) return;
    if (gone) return resync(sub, gone, d.send);
    const reading = d.feed.pageSoon(sub.viewer, sub.cursor, d.pageSize);
    const page = reading instanceof Promise ? await reading : reading;
    let waited = false;
    for (const item of page.items) {
      while (!conn.closed && conn.socket.bufferedAmount() > d.pauseAboveBytes) {
        waited = true;
        await new Promise<void>((resolve) => conn.drainWaiters.push(resolve));
      }
      if (!here() || !d.send(conn, messageFrame(sub.identifierJson, renderedJson(item)))) return;
      sub.cursor = item.seq;
    }
    sub.cursor = page.next;
    if (!page.more && !waited) {
      if (d.liveCursor() === null) await d.liveStarted();
      // Read to the end and sent without yielding, and nothing the live stream handed out is newer
      // than what was read: no event can have slipped in between.
      if (here() && d.liveCursor()! <= page.head) {
        sub.replaying = false;
        return;
      }
      continue;
    }
    if (!waited) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The client asked for what is no longer (or never was) here: it must reload; live events follow from the head. */
function resync(sub: Subscription, data: ResyncData, send: ReplayDeps["send"]): void {
  sub.cursor = data.latest_seq;
  sub.replaying = false;
  send(sub.conn, messageFrame(sub.identifierJson, JSON.stringify({ event: "resync", data })));
}

/** What starting a subscription's stream needs beyond a replay: what to do when a replay fails. */
export interface StreamDeps extends ReplayDeps {
  /** A replay threw (the table could not be read): the hub closes the socket, the client reconnects. */
  failed(sub: Subscription, error: unknown): void;
}

/** Starts new subscriptions' streams, and keeps track of the replays under way. */
export class Streams {
  private readonly replays = new Set<Promise<void>>();

  /**
   * Live from the head without `since`; else a replay from it, whose first step answers a `since`
   * that is no longer kept with a resync. On PostgreSQL the head is read on the read pool: the
   * subscription replays from the head while it is read (the live stream skips it), then goes live
   * as a replay does.
   */
  start(sub: Subscription, since: number | null, d: StreamDeps): void {
    if (since === null && !d.feed.pooled) {
      sub.cursor = d.feed.head();
      return;
    }
    sub.replaying = true;
    if (since !== null) {
      sub.cursor = since;
      this.track(sub, d, replay(sub, d));
      return;
    }
    const fromHead = async () => {
      sub.cursor = await d.feed.headSoon();
      return replay(sub, d);
    };
    this.track(sub, d, fromHead());
  }

  private track(sub: Subscription, d: StreamDeps, run: Promise<void>): void {
    const tracked = run.catch((error) => d.failed(sub, error)).finally(() => this.replays.delete(tracked));
    this.replays.add(tracked);
  }

  /** Resolves once every replay started so far has ended (a test's "the stream is complete" barrier). */
  async ended(): Promise<void> {
    await Promise.all(this.replays);
  }
}

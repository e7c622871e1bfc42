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
}

/** Sends everything after the cursor, page by page, waiting whenever the socket's buffer is half full. */
export async function replay(sub: Subscription, d: ReplayDeps): Promise<void> {
  const { conn } = sub;
  while (conn.subs.get(sub.identifier) === sub) {
    const gone = d.feed.resyncFor(sub.cursor);
    if (gone) return resync(sub, gone, d.send);
    const page = d.feed.page(sub.viewer, sub.cursor, d.pageSize);
    let waited = false;
    for (const item of page.items) {
      while (!conn.closed && conn.socket.bufferedAmount() > d.pauseAboveBytes) {
        waited = true;
        await new Promise<void>((resolve) => conn.drainWaiters.push(resolve));
      }
      if (conn.subs.get(sub.identifier) !== sub || !d.send(conn, messageFrame(sub.identifierJson, renderedJson(item))))
        return;
      sub.cursor = item.seq;
    }
    sub.cursor = page.next;
    // Read to the end and sent without yielding: no event can have slipped in between.
    if (!page.more && !waited) {
      sub.replaying = false;
      return;
    }
    if (!waited) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The client asked for what is no longer (or never was) here: it must reload; live events follow from the head. */
export function resync(sub: Subscription, data: ResyncData, send: ReplayDeps["send"]): void {
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

  /** Live from the head without `since`; a resync when `since` is no longer kept; else a replay from it. */
  start(sub: Subscription, since: number | null, d: StreamDeps): void {
    if (since === null) {
      sub.cursor = d.feed.head();
      return;
    }
    const gone = d.feed.resyncFor(since);
    if (gone) {
      resync(sub, gone, d.send);
      return;
    }
    sub.cursor = since;
    sub.replaying = true;
    const run = replay(sub, d)
      .catch((error) => d.failed(sub, error))
      .finally(() => this.replays.delete(run));
    this.replays.add(run);
  }

  /** Resolves once every replay started so far has ended (a test's "the stream is complete" barrier). */
  async ended(): Promise<void> {
    await Promise.all(this.replays);
  }
}

// Reading an account's past events for one viewer: the socket replay after `since` and the HTTP
// catch-up page through the same code, so both show exactly what the live stream would have sent
// (minus typing, which is stale by the time anyone replays it). Also decides when a `since` cannot
// be served: older than what is kept (pruned), or newer than anything recorded (a client holding
// another database's numbers, e.g. after a restore) — both answered with "resync".
import type { EventsRepo } from "../db/events.repo.ts";
import type { RealtimeRepo } from "../db/realtime.repo.ts";
import { nested, type Reads, readNow, readSoon } from "../db/reads.ts";
import type { EventRenderer, Rendered } from "./render.ts";
import { Audience, TYPING_KINDS, visible, type Viewer } from "./visibility.ts";

export interface FeedPage {
  items: Rendered[];
  /** The seq to continue after: the last event looked at, shown or not. */
  next: number;
  /** False only when every event up to now has been looked at. */
  more: boolean;
  /** The newest committed event when it was read: with `more` false, none of the viewer's account's up to it is left. */
  head: number;
}

export interface ResyncData {
  oldest_seq: number;
  latest_seq: number;
}

/** Events read per query; a page looks at no more than SCAN_PAGES of them, so a viewer who may see little cannot make one request scan the whole table. */
const CHUNK = 200;
const SCAN_PAGES = 25;

export class EventFeed {
  constructor(
    private readonly d: { events: EventsRepo; realtime: RealtimeRepo; renderer: EventRenderer; maxReplay: number },
  ) {}

  /**
   * Null when `since` can be served; otherwise what the client must resync to: events pruned since,
   * a `since` ahead of everything committed, or one so far back (more than maxReplay events of all
   * accounts) that reloading is cheaper than streaming the history (a week of it is ~100k records).
   */
  *readResync(since: number): Reads<ResyncData | null> {
    const { oldest } = yield* nested(this.d.events.readBounds());
    const head = yield* nested(this.d.events.readCommittedHead());
    // Ids are contiguous across accounts and pruning removes a prefix: below MIN(id) is gone.
    const gone = oldest !== null && since + 1 < oldest;
    if (since > head || gone || head - since > this.d.maxReplay) return { oldest_seq: oldest ?? 0, latest_seq: head };
    return null;
  }

  /** The newest committed seq (0 when none): where a live-only subscription starts. */
  head(): number {
    return this.d.events.committedHead();
  }

  /** Whether the forms below are awaited on the read pool (PostgreSQL) rather than read in place. */
  get pooled(): boolean {
    return this.d.events.pooled;
  }

  /** head(), readResync() and page() for a socket: in place on SQLite, on the read pool on PostgreSQL. */
  headSoon(): number | Promise<number> {
    return readSoon(this.d.events.readCommittedHead());
  }

  resyncSoon(since: number): ResyncData | null | Promise<ResyncData | null> {
    return readSoon(this.readResync(since));
  }

  pageSoon(viewer: Viewer, since: number, limit: number): FeedPage | Promise<FeedPage> {
    return readSoon(this.readPage(viewer, since, limit));
  }

  /** Up to `limit` events the viewer may see after `since`, oldest first. Synchronous, so a caller can switch to live right after it. */
  page(viewer: Viewer, since: number, limit: number): FeedPage {
    return readNow(this.readPage(viewer, since, limit));
  }

  /** page as steps: a socket's replay runs them in place, the HTTP catch-up awaits them (readSoon). */
  *readPage(viewer: Viewer, since: number, limit: number): Reads<FeedPage> {
    const audience = new Audience(this.d.realtime);
    const items: Rendered[] = [];
    const head = yield* nested(this.d.events.readCommittedHead());
    let next = since;
    for (let scanned = 0; scanned < CHUNK * SCAN_PAGES; scanned += CHUNK) {
      const rows = yield* nested(this.d.events.readAfterInAccount(viewer.accountId, next, CHUNK, head));
      for (let i = 0; i < rows.length; i++) {
        const e = rows[i]!;
        next = e.id;
        if (TYPING_KINDS.has(e.kind)) continue;
        yield* nested(audience.readFacts(e, viewer));
        if (!visible(e, viewer, audience)) continue;
        const r = yield* nested(this.d.renderer.readRender(e));
        if (r) items.push(r);
        if (items.length === limit) return { items, next, more: i < rows.length - 1 || rows.length === CHUNK, head };
      }
      if (rows.length < CHUNK) return { items, next, more: false, head };
    }
    return { items, next, more: true, head };
  }
}

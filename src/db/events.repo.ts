// Writing the outbox (src/events/outbox.ts), reading it for the bus and realtime (live fan-out,
// replay, HTTP catch-up) and pruning it. An event's
// id is its sequence number: ids only grow (one writer at a time, commit order = id order), so
// "everything after seq" is a range scan. Pruning removes a prefix only, so MIN(id) is always the
// exact boundary of what is kept.
import type { Database, Statement } from "bun:sqlite";
import type { StoredEvent } from "../shared/event-types.ts";
import { nested, type Reads, readLater, readNow, TwoWayStatement } from "./reads.ts";
import { writing } from "./tx.ts";

export interface EventRow {
  id: number;
  account_id: number;
  kind: string;
  actor_type: string;
  actor_id: number | null;
  inbox_id: number | null;
  conversation_id: number | null;
  contact_id: number | null;
  private: number;
  payload: string;
  created_at_ms: number;
}

export type NewEventRow = Omit<EventRow, "id">;

/**
 * The payload is parsed on first read: each bus listener gets every event, and most return on its
 * kind or on "no rules here" before looking inside (a message's three events were six parses of
 * the conversation's push data, 5 % of a message create's CPU).
 */
export function eventFromRow(r: EventRow): StoredEvent {
  let payload: Record<string, unknown> | undefined;
  return {
    id: r.id,
    kind: r.kind as StoredEvent["kind"],
    accountId: r.account_id,
    actor: { type: r.actor_type as StoredEvent["actor"]["type"], id: r.actor_id },
    inboxId: r.inbox_id,
    conversationId: r.conversation_id,
    contactId: r.contact_id,
    private: r.private === 1,
    get payload() {
      payload ??= JSON.parse(r.payload) as Record<string, unknown>;
      return payload;
    },
    set payload(value) {
      payload = value;
    },
    createdAtMs: r.created_at_ms,
  };
}

export interface EventBounds {
  /** Smallest kept id (null: no events). */
  oldest: number | null;
  /** Largest id ever handed out and still kept (the newest event is never pruned). */
  latest: number | null;
}

export class EventsRepo {
  private committed = 0;
  private readonly afterStmt: TwoWayStatement;
  private readonly afterInAccountStmt: TwoWayStatement;
  private readonly boundsStmt: TwoWayStatement;
  private readonly firstSinceStmt: TwoWayStatement;
  private readonly minCursorStmt: TwoWayStatement;
  private readonly minPendingStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;
  private readonly insertStmt: TwoWayStatement;
  private readonly batchStmt: TwoWayStatement;
  private readonly maxIdStmt: Statement;

  constructor(private readonly db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO events (account_id, kind, actor_type, actor_id, inbox_id, conversation_id, contact_id, private, payload, created_at_ms)
       VALUES ($account_id, $kind, $actor_type, $actor_id, $inbox_id, $conversation_id, $contact_id, $private, $payload, $created_at_ms)`,
    );
    // The bus's read: every event after its cursor (it runs after commits; on PostgreSQL on the
    // read pool, where events commit in id order: the writers' lock).
    this.batchStmt = new TwoWayStatement(
      db,
      "SELECT * FROM events INDEXED BY events_seq WHERE id > $after ORDER BY id LIMIT $limit",
    );
    this.maxIdStmt = db.prepare("SELECT COALESCE(MAX(id), 0) AS id FROM events");
    // Named indexes: a seek to `after` whatever sqlite_stat1 says (migrations/012_query_plans.sql).
    this.afterStmt = new TwoWayStatement(
      db,
      "SELECT * FROM events INDEXED BY events_seq WHERE id > $after AND id <= $upto ORDER BY id LIMIT $limit",
    );
    this.afterInAccountStmt = new TwoWayStatement(
      db,
      "SELECT * FROM events INDEXED BY events_account WHERE account_id = $account_id AND id > $after AND id <= $upto ORDER BY id LIMIT $limit",
    );
    // Two subqueries: SQLite answers a lone MIN or MAX of the rowid from the b-tree edge, but both in
    // one SELECT scan the whole table (23 % of the server's time under write load on 1 M events).
    this.boundsStmt = new TwoWayStatement(
      db,
      "SELECT (SELECT MIN(id) FROM events) AS oldest, (SELECT MAX(id) FROM events) AS latest",
    );
    // Walks from the oldest row; the rows it passes are exactly the ones the prune removes.
    this.firstSinceStmt = new TwoWayStatement(
      db,
      "SELECT id FROM events WHERE created_at_ms >= $cutoff ORDER BY id LIMIT 1",
    );
    this.minCursorStmt = new TwoWayStatement(db, "SELECT MIN(last_event_id) AS id FROM listener_cursors");
    this.minPendingStmt = new TwoWayStatement(
      db,
      "SELECT MIN(event_id) AS id FROM webhook_deliveries WHERE status = 'pending'",
    );
    this.deleteStmt = new TwoWayStatement(
      db,
      "DELETE FROM events WHERE id IN (SELECT id FROM events WHERE id < $below ORDER BY id LIMIT $limit)",
    );
    this.committedHead();
  }

  /**
   * The newest event known to be committed. With no transaction open on this connection everything
   * it sees is committed, so the value is read afresh (events another process wrote included);
   * inside one (a group commit gathering writes) it is the value from the last such moment. The
   * realtime reads below stop there: no client hears of an event that a rollback or a crash could
   * still take back, and ids a rollback hands out again were never shown to anyone.
   */
  committedHead(): number {
    if (!writing(this.db)) this.committed = this.bounds().latest ?? 0;
    return this.committed;
  }

  /** Whether the Reads forms are awaited on the read pool (PostgreSQL). */
  get pooled(): boolean {
    return this.boundsStmt.pooled;
  }

  /**
   * After a commit that wrote events: the new head, kept for in-place readers inside the next
   * write. SQLite reads it right after COMMIT, before the next write begins. PostgreSQL reads it on
   * the read pool and keeps it when it lands, never moving back: in place it held the whole process
   * for a round trip after every such commit. A read that fails is left: the next commit's reads
   * again, and a reader outside a write reads afresh anyway.
   */
  noteCommitted(): void {
    if (!this.pooled) {
      this.committedHead();
      return;
    }
    readLater(this.readBounds()).then(
      ({ latest }) => {
        if (latest !== null && latest > this.committed) this.committed = latest;
      },
      () => {},
    );
  }

  /**
   * committedHead as a step: in place as above; awaited, the read pool's newest event, which is
   * committed (the pool sees nothing else). That value is not kept: the one kept moves only in place.
   */
  *readCommittedHead(): Reads<number> {
    const bounds = this.boundsStmt.get([]);
    return (yield {
      now: () => this.committedHead(),
      later: async () => ((await bounds.later()) as EventBounds).latest ?? 0,
      pooled: bounds.pooled,
    }) as number;
  }

  /** Committed events of every account after `after`, oldest first (the live hub). */
  after(after: number, limit: number): EventRow[] {
    return readNow(this.readAfter(after, limit));
  }

  /** after as steps: in place on SQLite, on the read pool on PostgreSQL (committed rows only). */
  *readAfter(after: number, limit: number): Reads<EventRow[]> {
    const upto = yield* nested(this.readCommittedHead());
    return (yield this.afterStmt.all({ after, limit, upto })) as EventRow[];
  }

  /** One account's committed events after `after`, oldest first (replay and catch-up). */
  afterInAccount(accountId: number, after: number, limit: number): StoredEvent[] {
    return readNow(this.readAfterInAccount(accountId, after, limit));
  }

  /** `upto`: the newest event to read (by default the committed head, read first). */
  *readAfterInAccount(accountId: number, after: number, limit: number, upto?: number): Reads<StoredEvent[]> {
    upto ??= yield* nested(this.readCommittedHead());
    return ((yield this.afterInAccountStmt.all({ account_id: accountId, after, limit, upto })) as EventRow[]).map(
      eventFromRow,
    );
  }

  bounds(): EventBounds {
    return this.boundsStmt.statement.get() as EventBounds;
  }

  *readBounds(): Reads<EventBounds> {
    return (yield this.boundsStmt.get([])) as EventBounds;
  }

  /**
   * The first id that must be kept: the oldest event newer than the cutoff, the oldest event a
   * durable listener has not finished, the oldest event a pending webhook delivery came from, and
   * never past the newest event (without AUTOINCREMENT SQLite would hand a deleted top id out again).
   */
  *readKeepFrom(cutoffMs: number): Reads<number | null> {
    const { latest } = yield* this.readBounds();
    if (latest === null) return null;
    const candidates = [latest];
    const fresh = (yield this.firstSinceStmt.get({ cutoff: cutoffMs })) as { id: number } | null;
    if (fresh) candidates.push(fresh.id);
    const cursor = ((yield this.minCursorStmt.get([])) as { id: number | null }).id;
    if (cursor !== null) candidates.push(cursor + 1);
    const pending = ((yield this.minPendingStmt.get([])) as { id: number | null }).id;
    if (pending !== null) candidates.push(pending);
    return Math.min(...candidates);
  }

  /** Deletes up to `limit` of the oldest events below `below`; returns how many. */
  *deleteBelowSteps(below: number, limit: number): Reads<number> {
    return yield* this.deleteStmt.changesSteps({ below, limit });
  }

  /** Writes one event (inside the writer's transaction); returns its id. */
  *insertSteps(e: NewEventRow): Reads<number> {
    return yield* this.insertStmt.insertSteps(e as unknown as Record<string, string | number | null>);
  }

  /** Up to `limit` events after `after`, in id order (the bus's batches). */
  *readBatchAfter(after: number, limit: number): Reads<EventRow[]> {
    return (yield this.batchStmt.all({ after, limit })) as EventRow[];
  }

  /** The newest id written so far (0: none). */
  maxId(): number {
    return (this.maxIdStmt.get() as { id: number }).id;
  }
}

// Shared reads (src/db/tx.ts): with group commit, the requests of one event-loop turn read in one
// snapshot instead of a transaction a statement. The snapshot sees only committed rows, ends with
// the turn, gives way to the turn's write group, and is never taken for a write transaction.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { migrate } from "../../src/db/migrate.ts";
import { writing } from "../../src/db/tx.ts";
import { EventBus } from "../../src/events/bus.ts";
import { EventOutbox } from "../../src/events/outbox.ts";
import { SOLE_LEASE } from "../../src/lib/lease.ts";
import { ManualClock } from "../../src/lib/clock.ts";
import { SYSTEM_ACTOR } from "../../src/shared/event-types.ts";
import { makeAccount } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";
import { counting, fileDatabases, turn } from "../helpers/tx-fixtures.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";
import { recordEvents } from "../helpers/webhooks.ts";

const fileDb = fileDatabases();

const count = (db: Database) => (db.query("SELECT count(*) AS n FROM t").get() as { n: number }).n;

describe("shared reads", () => {
  test("a snapshot lasts the turn, is no write transaction, and ends by itself", async () => {
    const { db } = fileDb();
    const { commits, calls } = counting(db, true);
    commits.shareReads();
    expect(db.inTransaction).toBe(true);
    expect(writing(db)).toBe(false);
    commits.shareReads(); // a second request of the same turn joins it
    expect(count(db)).toBe(0);
    await turn();
    expect(db.inTransaction).toBe(false);
    expect(calls).toEqual({ commits: 0, rollbacks: 0 });
    expect(commits.settled()).toBeNull();
  });

  test("another connection's commit shows in the next turn, not inside the snapshot", async () => {
    const { db, path } = fileDb();
    const { commits } = counting(db, true);
    const other = new Database(path);
    commits.shareReads();
    expect(count(db)).toBe(0); // the first read fixes the snapshot
    other.run("INSERT INTO t VALUES (7)");
    expect(count(db)).toBe(0);
    await turn();
    commits.shareReads();
    expect(count(db)).toBe(1);
    other.close();
    await turn();
  });

  test("a write of the turn ends the snapshot and commits in the write group", async () => {
    const { db, path } = fileDb();
    const { writeTx, commits, calls } = counting(db, true);
    const other = new Database(path, { readonly: true });
    commits.shareReads();
    expect(count(db)).toBe(0);
    writeTx.now(() => db.run("INSERT INTO t VALUES (1)"));
    expect(writing(db)).toBe(true);
    commits.shareReads(); // a request after the write reads inside the write group
    expect(writing(db)).toBe(true);
    expect(count(db)).toBe(1);
    expect(count(other)).toBe(0);
    await commits.settled();
    expect(db.inTransaction).toBe(false);
    expect(count(other)).toBe(1);
    expect(calls).toEqual({ commits: 1, rollbacks: 0 });
    other.close();
  });

  test("an event recorded in a snapshot, outside writeTx, is refused", async () => {
    const { db } = fileDb();
    migrate(db);
    const { commits } = counting(db, true);
    const outbox = new EventOutbox(db, new ManualClock());
    commits.shareReads();
    expect(() => outbox.record({ accountId: 1, kind: "contact_created", actor: SYSTEM_ACTOR, payload: {} })).toThrow(
      "recorded outside writeTx",
    );
    await turn();
  });

  test("flush ends an open snapshot, so the database can close at once", () => {
    const { db } = fileDb();
    const { commits } = counting(db, true);
    commits.shareReads();
    expect(count(db)).toBe(0);
    commits.flush();
    expect(db.inTransaction).toBe(false);
    db.close(); // the turn's end finds nothing to do on the closed database
  });

  test("without group commit there is no snapshot", () => {
    const { db } = fileDb();
    counting(db, false).commits.shareReads();
    expect(db.inTransaction).toBe(false);
  });

  test("a request reads in the turn's snapshot, which ends with the turn (none on PostgreSQL)", async () => {
    const h = createHarness();
    const res = await h.app.handle(new Request("http://localhost/health"));
    expect(res.status).toBe(200);
    // On PostgreSQL a BEGIN would take the writers' lock, and statements cost no lock of their own.
    expect(h.deps.db.inTransaction).toBe(TEST_ENGINE === "sqlite");
    expect(writing(h.deps.db)).toBe(false);
    await turn();
    expect(h.deps.db.inTransaction).toBe(false);
  });

  // On PostgreSQL there is no snapshot to turn into a write.
  test.skipIf(TEST_ENGINE !== "sqlite")("the event bus saves a cursor in a write group of its own", async () => {
    const h = createHarness();
    const a = await makeAccount(h);
    const bus = new EventBus(h.deps.db, h.deps.logger, SOLE_LEASE, h.deps.writeTx);
    const handled: number[] = [];
    bus.register({ name: "probe", handle: (e) => void handled.push(e.id) });
    const ids = await recordEvents(h, [{ kind: "contact_updated", accountId: a.accountId }]);
    await h.deps.commits.settled();
    h.deps.commits.shareReads();
    expect(writing(h.deps.db)).toBe(false);
    await bus.drain(); // within the turn: the listener and the cursor's save run before it ends
    expect(handled).toEqual(ids);
    // A lone statement would have turned the snapshot into a write that nothing waits for.
    expect(writing(h.deps.db)).toBe(true);
    await h.deps.commits.settled();
    expect(h.deps.db.inTransaction).toBe(false);
    expect(bus.cursorOf("probe")).toBe(ids[0]!);
  });
});

// Transaction bodies written as Reads that yield their statements (writeTx.steps): run in place on
// SQLite, each statement awaited on PostgreSQL (src/db/awaited-writes.ts). Both: the body sees its
// own writes, a failing one leaves nothing behind, the others of its group commit. PostgreSQL: the
// process serves other requests while a body waits, and in-place writes wait their turn or are refused.
import type { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import type { PostgresDatabase } from "../../src/db/postgres/database.ts";
import { type Reads, TwoWayStatement } from "../../src/db/reads.ts";
import { freshDatabase, TEST_ENGINE } from "../helpers/test-database.ts";
import { counting, turn } from "../helpers/tx-fixtures.ts";
import { until } from "../helpers/until.ts";

function accounts(db: Database) {
  const insert = new TwoWayStatement(db, "INSERT INTO accounts (name, created_at, updated_at) VALUES (?, 1, 1)");
  const byName = new TwoWayStatement(db, "SELECT id, name FROM accounts WHERE name = ?");
  return {
    /** Inserts an account, reads it back in the same transaction, and fails after if told to. */
    *add(name: string, fail = false): Reads<{ id: number; name: string }> {
      const { lastInsertRowid } = (yield insert.write([name])) as { lastInsertRowid: number };
      const row = (yield byName.get([name])) as { id: number; name: string } | null;
      if (fail) throw new Error(`no ${name}`);
      expect(row?.id).toBe(lastInsertRowid);
      return row!;
    },
    names: () => (db.prepare("SELECT name FROM accounts ORDER BY id").all() as { name: string }[]).map((r) => r.name),
  };
}

describe("writeTx.steps", () => {
  test("a body sees its own writes; a failing one writes nothing and the others commit", async () => {
    const db = freshDatabase();
    const { writeTx, calls } = counting(db, true);
    const a = accounts(db);
    // Started together: on PostgreSQL they share one transaction, the failing one in a savepoint.
    const results = await Promise.allSettled([
      writeTx.steps(() => a.add("first")),
      writeTx.steps(() => a.add("second", true)),
      writeTx.steps(() => a.add("third")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[0] as PromiseFulfilledResult<{ name: string }>).value.name).toBe("first");
    expect((results[1] as PromiseRejectedResult).reason.message).toBe("no second");
    expect(a.names()).toEqual(["first", "third"]);
    await turn(); // SQLite's group commits at the end of the turn; PostgreSQL's before the bodies answered
    expect(calls).toEqual({ commits: 1, rollbacks: 0 });
  });

  test("a body that fails alone rolls back, and tells the hooks", async () => {
    const db = freshDatabase();
    const { writeTx, calls } = counting(db, true);
    const a = accounts(db);
    await expect(writeTx.steps(() => a.add("only", true))).rejects.toThrow("no only");
    expect(a.names()).toEqual([]);
    // SQLite runs the body as a savepoint of the turn's group, which commits empty.
    if (TEST_ENGINE === "postgres") expect(calls).toEqual({ commits: 0, rollbacks: 1 });
  });
});

describe.skipIf(TEST_ENGINE !== "postgres")("PostgreSQL: awaited bodies", () => {
  test("while a body waits on a lock, the process answers in place; in-place writes wait or are refused", async () => {
    const db = freshDatabase();
    const pg = db as unknown as PostgresDatabase;
    const { writeTx, calls } = counting(db, true);
    const a = accounts(db);
    // Two connections: one holds the lock; the other watches (a transaction sees one statistics snapshot).
    const other = new Bun.SQL(pg.url, { max: 2 });
    const session = await other.reserve();
    try {
      await session`BEGIN`;
      await session`LOCK TABLE accounts IN EXCLUSIVE MODE`;
      const order: string[] = [];
      const body = writeTx.steps(() => a.add("awaited")).then(() => order.push("awaited"));
      const waiting = async () =>
        Number((await other`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'`)[0].n);
      await until(async () => (await waiting()) > 0); // the body's insert waits on the lock
      // The process is not held: a statement in place answers (a read does not wait on the lock).
      expect(db.prepare("SELECT count(*) AS n FROM accounts").get()).toEqual({ n: 0 });
      const later = writeTx(() => db.run("INSERT INTO accounts (name, created_at, updated_at) VALUES ('later', 2, 2)"));
      void later.then(() => order.push("later"));
      expect(() => writeTx.now(() => 0)).toThrow("while an awaited body writes");
      await session`COMMIT`;
      await body;
      await later;
      expect(order).toEqual(["awaited", "later"]);
      expect(a.names()).toEqual(["awaited", "later"]);
      // Each in a transaction of its own: the awaited group's, then the in-place write's group.
      await turn();
      expect(calls).toEqual({ commits: 2, rollbacks: 0 });
    } finally {
      session.release();
      await other.close();
    }
  });

  test("a statement run in place from inside an awaited body is refused, and the body writes nothing", async () => {
    const db = freshDatabase();
    const { writeTx } = counting(db, true);
    const a = accounts(db);
    function* mistaken(): Reads<void> {
      yield* a.add("kept out");
      db.prepare("SELECT 1 AS one").get();
    }
    await expect(writeTx.steps(mistaken)).rejects.toThrow(
      "a statement run in place inside an awaited transaction body",
    );
    expect(a.names()).toEqual([]);
  });
});

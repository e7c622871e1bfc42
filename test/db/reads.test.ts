// Reads written once, run in place or awaited (src/db/reads.ts): the same rows either way, and
// the one difference that decides where each may be used.
import { describe, expect, test } from "bun:test";
import { Batch } from "../../src/db/batch.ts";
import type { PostgresDatabase } from "../../src/db/postgres/database.ts";
import { all, known, type Reads, readLater, readNow, readSoon, TwoWayStatement } from "../../src/db/reads.ts";
import { freshDatabase, TEST_ENGINE } from "../helpers/test-database.ts";
import { until } from "../helpers/until.ts";

function accounts(n: number) {
  const db = freshDatabase();
  const insert = db.prepare("INSERT INTO accounts (name, created_at, updated_at) VALUES (?, 10, 10)");
  const ids = Array.from({ length: n }, (_, i) => Number(insert.run(`A${i + 1}`).lastInsertRowid));
  const batch = new Batch<{ id: number; name: string }>(db, "SELECT id, name FROM accounts WHERE id IN {ids}", "id");
  return { db, ids, batch };
}

describe("reads run two ways", () => {
  test("a batch answers the same rows in place and awaited: order of the ids, repeats once, unknown ids none", async () => {
    const { ids, batch } = accounts(70);
    // One id, a few (a list of 4 arms with one padding arm), and more than one list (64 + 6).
    const asked = [[ids[5]!], [ids[2]!, ids[0]!, ids[2]!, 999_999], [...ids].reverse()];
    for (const list of asked) {
      const now = readNow(batch.readRows(list));
      expect(await readLater(batch.readRows(list))).toEqual(now);
      const known = [...new Set(list)].filter((id) => id !== 999_999);
      expect(now.map((r) => r.id)).toEqual(known);
      expect(now.map((r) => r.name)).toEqual(known.map((id) => `A${ids.indexOf(id) + 1}`));
    }
    expect(await readLater(batch.readRows([]))).toEqual([]);
  });

  test("in place a read sees the open transaction's rows; awaited, only on SQLite", async () => {
    const { db, ids, batch } = accounts(1);
    db.run("BEGIN");
    try {
      db.run("UPDATE accounts SET name = 'renamed' WHERE id = ?", [ids[0]!]);
      expect(readNow(batch.readRows(ids))[0]?.name).toBe("renamed");
      // PostgreSQL's awaited reads run on the read pool, another connection: committed rows only.
      // SQLite's run in place, on the one connection.
      const awaited = (await readLater(batch.readRows(ids)))[0]?.name;
      expect(awaited).toBe(TEST_ENGINE === "postgres" ? "A1" : "renamed");
    } finally {
      db.run("ROLLBACK");
    }
  });

  test("all: independent Reads as one step, the same values in place and awaited; SQLite answers in place", async () => {
    const { db, ids, batch } = accounts(3);
    const count = new TwoWayStatement(db, "SELECT count(*) AS n FROM accounts");
    function* counted() {
      return ((yield count.get([])) as { n: number }).n;
    }
    const both = () => all(batch.readRows([ids[2]!, ids[0]!]), counted(), known("given"));
    const expected: [{ id: number; name: string }[], number, string] = [
      [
        { id: ids[2]!, name: "A3" },
        { id: ids[0]!, name: "A1" },
      ],
      3,
      "given",
    ];
    expect(readNow(both())).toEqual(expected);
    const soon = readSoon(both());
    // On SQLite nothing is awaited, so the route that asks stays synchronous.
    expect(soon instanceof Promise).toBe(TEST_ENGINE === "postgres");
    expect(await soon).toEqual(expected);
    expect(await readLater(all())).toEqual([]);
  });

  test("all: a failing Read fails the step, in place and awaited, and leaves nothing unhandled", async () => {
    const { db, batch, ids } = accounts(1);
    const broken = new TwoWayStatement(db, "SELECT json_extract(name, '$.a') AS a FROM accounts");
    function* failing(): Reads<unknown> {
      return yield broken.get([]);
    }
    const failed = /malformed JSON|invalid input syntax for type json/;
    expect(() => readNow(all(batch.readRows(ids), failing()))).toThrow(failed);
    await expect(readLater(all(batch.readRows(ids), failing(), batch.readRows(ids)))).rejects.toThrow(failed);
    // A Reads that throws before any statement, after another has started on the pool.
    // biome-ignore lint/correctness/useYield: it fails before its first statement
    function* refusing(): Generator<never, never, unknown> {
      throw new Error("refused before reading");
    }
    await expect(readLater(all(batch.readRows(ids), refusing()))).rejects.toThrow("refused before reading");
  });

  // In place there is one connection and nothing runs at once; on PostgreSQL's read pool each Read of
  // an `all` goes out without waiting for the others.
  test.skipIf(TEST_ENGINE !== "postgres")(
    "PostgreSQL: the statements of an all() are on the read pool at once",
    async () => {
      const db = freshDatabase();
      db.run("INSERT INTO accounts (name, created_at, updated_at) VALUES ('A', 10, 10)");
      const accountsCount = new TwoWayStatement(db, "SELECT count(*) AS n FROM accounts");
      const usersCount = new TwoWayStatement(db, "SELECT count(*) AS n FROM users");
      function* countOf(statement: TwoWayStatement) {
        return ((yield statement.get([])) as { n: number }).n;
      }
      const other = new Bun.SQL((db as unknown as PostgresDatabase).url, { max: 1 });
      const session = await other.reserve();
      try {
        await session`BEGIN`;
        await session`LOCK TABLE accounts, users IN ACCESS EXCLUSIVE MODE`;
        const pending = readLater(all(countOf(accountsCount), countOf(usersCount)));
        // Both wait on the lock: one after the other, the second would not have been sent yet.
        await until(
          async () =>
            (
              await session`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation IN ('accounts'::regclass, 'users'::regclass)`
            )[0].n === 2,
        );
        await session`COMMIT`;
        expect(await pending).toEqual([1, 0]);
      } finally {
        session.release();
        await other.close();
      }
    },
  );
});

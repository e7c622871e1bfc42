// Reads written once, run in place or awaited (src/db/reads.ts): the same rows either way, and
// the one difference that decides where each may be used.
import { describe, expect, test } from "bun:test";
import { Batch } from "../../src/db/batch.ts";
import { readLater, readNow } from "../../src/db/reads.ts";
import { freshDatabase, TEST_ENGINE } from "../helpers/test-database.ts";

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
});

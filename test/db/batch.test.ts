import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { Batch } from "../../src/db/batch.ts";

// A page of 5 ids runs as 8 arms (lengths rounded up to a power of two): the 3 padding arms must
// add no rows, or the last id's labels would show up four times.
function labels() {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE l (id INTEGER PRIMARY KEY, owner INTEGER, title TEXT); CREATE INDEX l_owner ON l(owner)");
  for (let owner = 1; owner <= 70; owner++)
    for (const title of ["vip", "billing"]) db.run("INSERT INTO l (owner, title) VALUES (?, ?)", [owner, title]);
  return new Batch<{ owner_id: number; title: string }>(
    db,
    "SELECT owner AS owner_id, title FROM l WHERE owner IN {ids} ORDER BY owner, id",
    "owner_id",
  );
}

describe("Batch", () => {
  test("a page whose length is not a power of two gets each id's rows once", () => {
    const grouped = labels().group([5, 3, 1, 2, 4]);
    expect([...grouped.keys()]).toEqual([5, 3, 1, 2, 4]);
    for (const rows of grouped.values()) expect(rows.map((r) => r.title)).toEqual(["vip", "billing"]);
  });

  test("repeated and unknown ids, and pages longer than one list", () => {
    const batch = labels();
    expect(batch.rows([2, 2, 999]).map((r) => `${r.owner_id}:${r.title}`)).toEqual(["2:vip", "2:billing"]);
    const ids = Array.from({ length: 70 }, (_, i) => 70 - i);
    const rows = batch.rows(ids);
    expect(rows.length).toBe(140);
    expect(rows.slice(0, 2).map((r) => r.owner_id)).toEqual([70, 70]);
    expect(rows.at(-1)!.owner_id).toBe(1);
  });
});

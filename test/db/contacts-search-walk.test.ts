// A sorted search of a common term walks its order instead of sorting every hit
// (src/db/contacts-search-walk.ts). The walk tests each row itself rather than asking the search
// tables, so it must give the same pages as the sort: checked here page by page against a
// ContactSearch that never walks, on enough contacts for the walk to run, with rows whose
// text folds into the term only by the trigram tokenizer's Unicode folding.
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONTACT_SORTS, ContactSearch } from "../../src/db/contacts-search.ts";
import { WALK_FROM_HITS, WALK_ROWS, walkParams } from "../../src/db/contacts-search-walk.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";

const dir = mkdtempSync(join(tmpdir(), "parley-walk-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 28,000 contacts; three in four have an "@shop.example" email (21,000 hits for "shop"). */
function seeded() {
  const db = openDatabase(join(dir, "walk.db"));
  migrate(db);
  db.run("INSERT INTO accounts (name, created_at, updated_at) VALUES ('Acme', 0, 0), ('Other', 0, 0)");
  db.run(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 28000)
    INSERT INTO contacts (account_id, name, email, phone_number, last_activity_at, created_at, updated_at)
    SELECT 1, printf('%s %05d', CASE i % 3 WHEN 0 THEN 'Sam' WHEN 1 THEN 'Kim' ELSE 'Lou' END, (i * 7919) % 28000),
      CASE WHEN i % 4 = 0 THEN NULL ELSE 'user' || i || '@shop.example' END,
      CASE WHEN i % 5 = 0 OR i % 4 = 0 THEN '+4930' || i END,
      CASE WHEN i % 3 = 0 THEN NULL ELSE (i * 31) % 5000 END, (i * 17) % 10000, 0 FROM n`);
  const add = (name: string, email: string | null, phone: string | null, account = 1) =>
    (
      db
        .query(
          "INSERT INTO contacts (account_id, name, email, phone_number, last_activity_at, created_at, updated_at) VALUES (?, ?, ?, ?, 9999, 99999, 0) RETURNING id",
        )
        .get(account, name, email, phone) as { id: number }
    ).id;
  return {
    db,
    // Hits only through folding: LONG S is "s" to the tokenizer, KELVIN SIGN "k".
    longS: add("AAA long s", "x@\u017fhop.zz", null),
    kelvin: add("AAA kelvin", "y@shop.\u212az", null),
    // Not hits: FULLWIDTH S folds to a fullwidth "s"; an accented o is not an o.
    fullwidth: add("AAA fullwidth", "z@\uff33hop.zz", null),
    accented: add("AAA accent", "w@sh\u00f3p.zz", null),
    // A hit by its name, which holds a character outside ASCII.
    named: add("AAA SHOPé", null, "+1555"),
    // Another account's hit, first in every order.
    other: add("AAA other", "o@shop.example", null, 2),
  };
}

describe("a sorted search walks its order for a common term, with the sort's answers", () => {
  const data = seeded();
  const executed: string[] = [];
  const prepare = data.db.prepare.bind(data.db);
  // Records which statements run (the walk or the sort), as they run.
  data.db.prepare = ((sql: string) => {
    const stmt = prepare(sql);
    const values = stmt.values.bind(stmt);
    stmt.values = ((...a: Parameters<typeof values>) => {
      executed.push(sql);
      return values(...a);
    }) as typeof stmt.values;
    return stmt;
  }) as typeof data.db.prepare;
  const walkedSql: string[] = [];
  const walking = new ContactSearch(data.db);
  const sorting = new ContactSearch(data.db, false);

  test("the fixture is dense enough to walk", async () => {
    const first = await sorting.search({ accountId: 1, sort: null, labels: null, limit: 15, offset: 0, term: "shop" });
    expect(first.count).toBe(21_000 + 3); // the long s, the kelvin sign, the name
    expect(first.count).toBeGreaterThanOrEqual(WALK_FROM_HITS);
  });

  const cases = CONTACT_SORTS.flatMap((column) => [false, true].map((desc) => ({ column, desc })));
  test.each(cases)("pages 1 to 4 by %o match the sorted pages", async (sort) => {
    const fellBack: number[] = [];
    for (const term of ["shop", "SHOP"]) {
      for (let page = 0; page < 4; page++) {
        const q = { accountId: 1, sort, labels: null, limit: 15, offset: page * 15, term };
        executed.length = 0;
        const walked = await walking.search(q);
        if (!executed.some((sql) => sql.includes(`LIMIT ${WALK_ROWS})`))) throw new Error("the walk did not run");
        walkedSql.push(...executed);
        if (executed.some((sql) => sql.includes("SELECT h.id AS id"))) fellBack.push(page);
        const sorted = await sorting.search(q);
        expect(walked.count).toBe(sorted.count);
        expect(walked.rows.map((r) => r.id)).toEqual(sorted.rows.map((r) => r.id));
        expect(walked.rows.length).toBe(15);
      }
    }
    // Descending by email, the contacts without one come first: no page of hits among the first
    // rows, so each page is sorted (the right answer, a little later). Every other order walks.
    expect(fellBack).toEqual(sort.column === "email" && sort.desc ? [0, 1, 2, 3, 0, 1, 2, 3] : []);
  });

  test("each walk reads its order's index from the account's first row: never a sort of the account's contacts", () => {
    const walks = [...new Set(executed.concat(walkedSql).filter((sql) => sql.includes(`LIMIT ${WALK_ROWS})`)))];
    expect(walks.length).toBe(10);
    for (const sql of walks) {
      const explain = data.db.query(`EXPLAIN QUERY PLAN ${sql}`);
      const plan = (
        explain.all({ account_id: 1, ...walkParams("shop", '"shop"'), limit: 15, offset: 0 }) as {
          detail: string;
        }[]
      ).map((r) => r.detail);
      explain.finalize();
      // The walk (the co-routine, up to where its rows are scanned) reads the index in order: no sort
      // of the account's contacts, only of equal names' ids (as the list); the page's hits may be.
      const walk = plan.slice(0, plan.indexOf("SCAN c"));
      expect(walk.filter((l) => /^SEARCH c USING INDEX contacts_resolved_\w+ \(account_id=\?\)$/.test(l)).length).toBe(
        1,
      );
      expect(walk.filter((l) => l.includes("TEMP B-TREE") && !l.includes("LAST TERM"))).toEqual([]);
    }
  });

  test("rows that fold into the term are hits; look-alikes are not; other accounts' never", async () => {
    const q = { accountId: 1, sort: { column: "name" as const, desc: false }, labels: null, limit: 15, offset: 0 };
    const ids = (await walking.search({ ...q, term: "shop" })).rows.map((r) => r.id);
    expect(ids.slice(0, 3)).toEqual([data.kelvin, data.longS, data.named]);
    expect(ids).not.toContain(data.fullwidth);
    expect(ids).not.toContain(data.accented);
    expect(ids).not.toContain(data.other);
    // Only one in three rows has a "sam" name (fewer hits than a walk needs): sorted, same answer.
    executed.length = 0;
    const sam = await walking.search({ ...q, term: "sam" });
    expect(executed.some((sql) => sql.includes(`LIMIT ${WALK_ROWS})`))).toBe(false);
    expect(sam.rows.map((r) => r.id)).toEqual((await sorting.search({ ...q, term: "sam" })).rows.map((r) => r.id));
  });
});

describe("what the walk's test of a row relies on", () => {
  test("the trigram tokenizer folds exactly two characters outside ASCII into ASCII: KELVIN SIGN and LONG S", () => {
    const db = new Database(":memory:");
    db.run("CREATE VIRTUAL TABLE t USING fts5(x, content = '', contentless_delete = 1, tokenize = 'trigram')");
    const insert = db.prepare("INSERT INTO t (rowid, x) VALUES (?, ?)");
    db.transaction(() => {
      for (let c = 0x80; c <= 0x10ffff; c++)
        if (c < 0xd800 || c > 0xdfff) insert.run(c, `q${String.fromCodePoint(c)}q`);
    })();
    const match = db.prepare("SELECT rowid FROM t WHERE t MATCH ?");
    const folded: Record<string, string[]> = {};
    for (let c = 0x20; c < 0x7f; c++) {
      const ch = String.fromCharCode(c);
      const hits = match.values(`"q${ch.replace(/"/g, '""')}q"`) as [number][];
      if (hits.length > 0) folded[ch] = hits.map(([cp]) => `U+${cp.toString(16).toUpperCase()}`);
    }
    expect(folded).toEqual({ K: ["U+212A"], S: ["U+17F"], k: ["U+212A"], s: ["U+17F"] });
  });

  test("lower() folds ASCII only (no ICU): a dotted capital I stays, so it cannot match an 'i'", () => {
    const db = new Database(":memory:");
    expect(db.query("SELECT lower('\u0130ÀK\u212a') AS l").get()).toEqual({ l: "\u0130Àk\u212a" });
  });
});

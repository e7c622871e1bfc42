// Contact search on PostgreSQL (src/db/contacts-search-postgres.ts, through the synchronous bridge as
// the server runs it) returns what SQLite's ContactSearch returns for the same rows: the same page
// (rows, order) and count for every case below, the rows copied with their ids by copyToPostgres. The cases that name the contacts they
// must find (EXPECTED, also checked on SQLite by test/db/contacts-search.test.ts) are checked here
// too, so both engines cannot agree on a wrong answer. Needs PostgreSQL (skipped, with the reason,
// without it).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ContactSearch } from "../../src/db/contacts-search.ts";
import { ContactSearchOnPostgres, pageSql } from "../../src/db/contacts-search-postgres.ts";
import { copyToPostgres } from "../../src/db/copy-to-postgres.ts";
import { migratePostgres } from "../../src/db/migrate-postgres.ts";
import { PostgresDatabase } from "../../src/db/postgres/database.ts";
import {
  asc,
  contactSearchFixture,
  desc,
  EXPECTED,
  full,
  type Query,
  pageOf,
} from "../helpers/contact-search-fixtures.ts";
import { postgresForFile } from "../helpers/postgres.ts";

const { db, id } = contactSearchFixture();
const sqlite = new ContactSearch(db);
const { server, skip } = await postgresForFile("contact search on PostgreSQL");

/**
 * The databases the comparison runs in: the server's default (libc C.UTF-8, whose order is the
 * bytes') and ICU's English (another order, another lower()), where anything left to the database's
 * collation would differ.
 */
const DATABASES: [string, string][] = [
  ["C.UTF-8", ""],
  ["ICU en-US", "TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'"],
];

/** A new database's URL. */
async function database(name: string, options: string): Promise<string> {
  const admin = new Bun.SQL(server!.url);
  try {
    await admin.unsafe(`CREATE DATABASE ${name} ${options}`);
  } finally {
    await admin.close();
  }
  return server!.url.replace(/\/postgres$/, `/${name}`);
}

/** Cases compared between the engines only. */
const COMPARED: [string, Query][] = [
  ["list", {}],
  ...(["name", "email", "phone_number", "last_activity_at", "created_at"] as const).flatMap((c): [string, Query][] => [
    [`list by ${c}`, { sort: asc(c) }],
    [`list by ${c}, descending`, { sort: desc(c) }],
    [`search by ${c}`, { term: "o", sort: asc(c) }],
    [`search by ${c}, descending`, { term: "o", sort: desc(c) }],
    [`3+ search by ${c}`, { term: "q.io", sort: asc(c) }],
    [`labelled by ${c}, descending`, { labels: ["vip", "billing"], sort: desc(c) }],
  ]),
  ...[0, 5, 15, 16, 100].flatMap((offset): [string, Query][] => [
    [`list page at ${offset}`, { limit: 5, offset }],
    [`search page at ${offset}`, { term: "a", limit: 3, offset }],
    [`sorted search page at ${offset}`, { term: "q.io", sort: asc("email"), limit: 3, offset }],
  ]),
  ...["+", "+1", "++", "1", "A@", "a_", "%", "\\", "'", '"', "é", "Zo", "se", "b", "ñ", "Иван", "óλγ", "zola.fr"].map(
    (term): [string, Query] => [`term ${term}`, { term }],
  ),
  ["phone prefix, other account's number", { term: "+1202" }],
  ["unresolved company", { term: "Acme" }],
];

for (const [kind, options] of DATABASES)
  describe.skipIf(skip !== null)(`contact search on PostgreSQL (${kind})`, () => {
    let pg: PostgresDatabase | null = null;
    let postgres: ContactSearchOnPostgres;
    const onPostgres = (q: Query) => pageOf(postgres, q);
    beforeAll(async () => {
      const url = await database(`contact_search_${DATABASES.findIndex(([k]) => k === kind)}`, options);
      const sql = new Bun.SQL(url);
      try {
        await copyToPostgres(db, sql);
      } finally {
        await sql.close();
      }
      // The server's search, through the server's connection (the synchronous bridge).
      pg = new PostgresDatabase(url);
      postgres = new ContactSearchOnPostgres(pg);
    });
    afterAll(() => pg?.close());

    test.each(EXPECTED)("finds what it should: %s", async (_name, q, keys) => {
      const page = await onPostgres(q);
      expect(page.rows.map((r) => r.id)).toEqual(keys.map((k) => id[k]!));
      expect(page.count).toBe(keys.length);
    });

    test.each([...EXPECTED.map(([name, q]): [string, Query] => [name, q]), ...COMPARED])(
      "the same page and count as SQLite: %s",
      async (_name, q) => {
        expect(await onPostgres(q)).toEqual(await pageOf(sqlite, q));
      },
    );

    test("rows come back with SQLite's types (numbers, NULLs)", async () => {
      const [row] = (await onPostgres({ term: "martin" })).rows;
      expect(row).toEqual(db.query("SELECT * FROM contacts WHERE id = ?").get(id.alice!) as typeof row);
      expect(typeof row!.id).toBe("number");
      const zoe = (await onPostgres({ term: "Zoë" })).rows[0]!;
      expect([zoe.email, typeof zoe.last_activity_at]).toEqual([null, "number"]);
    });

    test("unresolved contacts are never returned", async () => {
      const all = await onPostgres({ limit: 100 });
      expect(all.count).toBe(21);
      expect(all.rows.map((r) => r.id)).not.toContain(id.unresolved);
      for (const term of ["Alice Unresolved", "al", "+1200", "Acme"])
        expect((await onPostgres({ term })).rows.map((r) => r.id)).not.toContain(id.unresolved);
    });
  });

/** The indexes an EXPLAIN (FORMAT JSON) plan reads, added to `into`. */
function indexesIn(plan: unknown, into = new Set<string>()): Set<string> {
  if (!plan || typeof plan !== "object") return into;
  const name = (plan as Record<string, unknown>)["Index Name"];
  if (typeof name === "string") into.add(name);
  for (const child of Object.values(plan)) indexesIn(child, into);
  return into;
}

describe.skipIf(skip !== null)("contact search on PostgreSQL, planned", () => {
  // A fresh database, its migrations and 5,000 contacts through the GIN indexes: ~1.5 s here, 5 s on a busy machine.
  test("3+ character terms are answered from the trigram indexes, shorter ones from the prefix indexes", async () => {
    const url = await server!.createDatabase("contact_search_plan");
    const big = new Bun.SQL(url);
    let pg: PostgresDatabase | null = null;
    try {
      await migratePostgres(big);
      await big.unsafe(`INSERT INTO accounts (id, name, created_at, updated_at) VALUES (1, 'Acme', 1, 1);
        INSERT INTO contacts (account_id, name, email, phone_number, company_name, identifier, created_at, updated_at)
        SELECT 1, 'Name ' || md5(i::text), md5((i + 1)::text) || '@mail.io', '+1555' || i,
               'Co ' || md5((i + 2)::text), md5((i + 3)::text), 1, 1
        FROM generate_series(1, 5000) i`);
      // VACUUM moves the rows out of the GIN indexes' pending lists (autovacuum's work on a real server).
      await big.unsafe("VACUUM ANALYZE contacts");
      // md5('777')'s middle: in the name of contact 777, the email of 776, the company of 775, the identifier of 774.
      const query = { ...full({}), term: "59258841" };
      pg = new PostgresDatabase(url);
      const found = await new ContactSearchOnPostgres(pg).search(query);
      expect(found.rows.map((r) => r.id)).toEqual([774, 775, 776, 777]);
      // The server runs them on its read pool, whose sessions' index statistics reach the views only
      // when they next go idle: the plans of the same statements with the same values say it directly.
      const q = pageSql(query, query.term);
      const used = new Set<string>();
      for (const text of [q.count, q.page])
        indexesIn(await big.unsafe(`EXPLAIN (FORMAT JSON) ${text}`, q.values), used);
      for (const index of ["name", "email", "phone", "company", "identifier"].map((c) => `contacts_search_${c}`))
        expect([index, used.has(index)]).toEqual([index, true]);

      // Terms under 3 characters: each prefix arm is a range of its own index (migration 032) …
      const short = pageSql(query, "zq");
      const shortUsed = indexesIn(await big.unsafe(`EXPLAIN (FORMAT JSON) ${short.count}`, short.values));
      expect([...shortUsed].sort()).toEqual(
        ["company", "email", "identifier", "name", "phone"].map((c) => `contacts_prefix_${c}`),
      );
      // … and a page of few hits reads them by those indexes, not by a walk of every contact in id order.
      const few = pageSql(query, "zq", { hits: 3, contacts: null });
      const fewUsed = indexesIn(await big.unsafe(`EXPLAIN (FORMAT JSON) ${few.page}`, few.values));
      expect([fewUsed.has("contacts_prefix_name"), fewUsed.has("contacts_pkey")]).toEqual([true, false]);
      // A longer term with a handful of hits among many contacts: its trigram indexes, not the walk.
      const rare = pageSql(query, query.term, { hits: found.rows.length, contacts: 5000 });
      const rareUsed = indexesIn(await big.unsafe(`EXPLAIN (FORMAT JSON) ${rare.page}`, rare.values));
      expect([rareUsed.has("contacts_search_name"), rareUsed.has("contacts_pkey")]).toEqual([true, false]);
    } finally {
      pg?.close();
      await big.close();
    }
  }, 30_000);
});

// Migration 034: the version moves once per transaction that writes contacts, and a savepoint rolled
// back takes its bump with it, so a later write in the same transaction bumps again.
describe.skipIf(skip !== null)("contact_search_version on PostgreSQL", () => {
  test("one bump per transaction; a rolled-back savepoint's bump is made again by the next write", async () => {
    const url = await server!.createDatabase("contact_search_version");
    const sql = new Bun.SQL(url);
    try {
      await migratePostgres(sql);
      await sql.unsafe("INSERT INTO accounts (id, name, created_at, updated_at) VALUES (1, 'Acme', 1, 1)");
      const version = async () => Number((await sql.unsafe("SELECT n FROM contact_search_version"))[0].n);
      const insert = (tx: typeof sql, email: string) =>
        tx.unsafe(`INSERT INTO contacts (account_id, email, created_at, updated_at) VALUES (1, '${email}', 1, 1)`);
      expect(await version()).toBe(0);
      await sql.unsafe(`INSERT INTO contacts (account_id, email, created_at, updated_at)
        SELECT 1, 'c' || i || '@x.io', 1, 1 FROM generate_series(1, 50) i`);
      expect(await version()).toBe(1);
      await sql.begin(async (tx) => {
        await insert(tx, "a@x.io");
        await insert(tx, "b@x.io");
      });
      expect(await version()).toBe(2);
      await sql.begin(async (tx) => {
        await tx
          .savepoint(async (sp) => {
            await insert(sp, "d@x.io");
            throw new Error("roll this savepoint back");
          })
          .catch(() => {});
        await insert(tx, "e@x.io");
      });
      expect(await version()).toBe(3);
      expect(Number((await sql.unsafe("SELECT count(*) AS n FROM contacts"))[0].n)).toBe(53);
    } finally {
      await sql.close();
    }
  });
});

// Contacts made to tell contact-search implementations apart (test/db/contacts-search*.test.ts):
// every searched field, mixed case, accents, LIKE's wildcards and quotes in the text, a short term
// in the middle of a name, phone numbers with a "+1200" inside and at the start, NULLs in every
// sorted column, unresolved contacts, labels, and a second account holding look-alikes; and the
// cases whose answers are known (EXPECTED).
import { Database } from "bun:sqlite";
import type { ContactPageQuery, ContactSortColumn } from "../../src/db/contacts-search.ts";
import { migrate } from "../../src/db/migrate.ts";

interface Fields {
  name?: string;
  email?: string;
  phone?: string;
  identifier?: string;
  company?: string;
  activity?: number;
  labels?: string[];
}

/** The database and the contacts' ids by key (account 1 unless the key starts with "other"). */
export function contactSearchFixture(): { db: Database; id: Record<string, number> } {
  const db = new Database(":memory:");
  migrate(db);
  db.exec("INSERT INTO accounts (id, name, created_at, updated_at) VALUES (1, 'Acme', 1, 1), (2, 'Other', 1, 1)");
  const insert = db.prepare(
    `INSERT INTO contacts (account_id, name, email, phone_number, identifier, company_name, last_activity_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 10, 20) RETURNING id`,
  );
  const label = db.prepare("INSERT INTO contact_labels (contact_id, account_id, title) VALUES (?, ?, ?)");
  const id: Record<string, number> = {};
  const add = (key: string, f: Fields) => {
    const account = key.startsWith("other") ? 2 : 1;
    const row = insert.get(
      account,
      f.name ?? "",
      f.email ?? null,
      f.phone ?? null,
      f.identifier ?? null,
      f.company ?? null,
      f.activity ?? null,
    ) as { id: number };
    id[key] = row.id;
    for (const t of f.labels ?? []) label.run(row.id, account, t);
  };
  add("alice", {
    name: "Alice Martin",
    email: "alice@example.com",
    phone: "+12025550101",
    identifier: "CRM-Alpha-1",
    company: "Acme Corp",
    activity: 300,
    labels: ["vip"],
  });
  add("aliceCaps", { name: "ALICE MARTIN", email: "am2@q.io", activity: 300 });
  add("bob", {
    name: "bob stone",
    email: "Bob.Stone@Example.org",
    company: "Stone & Sons",
    labels: ["vip", "billing"],
  });
  add("emile", {
    name: "Émile Zola",
    email: "emile@zola.fr",
    phone: "+33145550000",
    company: "Éditions",
    activity: 100,
  });
  // After "Émile" by bytes (é is C3 A9, É C3 89), before it by lower() (citext, ICU).
  add("eclair", { name: "éclair", email: "eclair@q.io" });
  add("zoe", { name: "Zoë Ångström", phone: "+46700000000", identifier: "se-zoe", activity: 200 });
  add("ivan", { name: "Иван Петров", email: "ivan@q.io", company: "Όλγα Ltd" });
  add("carol", { name: "Carol 50% off_sale", email: "c\\d@x.io", company: `O'Brien "Quotes"`, activity: 50 });
  // Would match "50%", "f_s" and "c\d" if the wildcards and the escape were not escaped.
  add("decoy", { name: "500 Offset", email: "acd@q.io", activity: 50 });
  add("xavier", { name: "Xavier Al", email: "xal@q.io" }); // "al" only in the middle
  add("dana", { name: "Dana", email: "Dx@Q.io" }); // an email with capitals: short terms compare it as stored
  add("bracket", { name: "[bracket", email: "b1@q.io" });
  add("under", { name: "_under", email: "b2@q.io" });
  add("idOnly", { identifier: "ID-only-7" }); // no name, no email, no phone
  add("promo", { name: "Promo +1200 line", email: "promo@q.io" });
  add("ukPhone", { name: "Uk Caller", phone: "+4412005550" }); // "1200" inside, not after the "+"
  add("usPhone", { name: "Us Caller", phone: "+12005550199", labels: ["billing"] });
  add("oddPhone", { name: "Odd Format", phone: "00+12005551" }); // not E.164: "+1200" is not its start
  add("vanity", { name: "Vanity", phone: "+1800FLOWERS" }); // letters: 3+ terms match them in any case
  // Two characters but three UTF-16 units; the second ends in the unit DFFF (a prefix range's edge).
  add("thumbs", { name: "👍🏿 Thumbs", email: "t@q.io" });
  add("smiley", { name: "Sam 😀x", email: "s@q.io" }); // "😀x" only in the middle
  add("unresolved", { name: "Alice Unresolved", company: "Acme Corp", labels: ["vip"] });
  add("unresolved2", { name: "al", company: "+1200" });
  add("otherAlice", { name: "Alice Other", email: "alice@other.io", phone: "+12025550101", labels: ["vip"] });
  add("otherPromo", { name: "Al +1200", identifier: "CRM-Alpha-2" });
  return { db, id };
}

/** A list (no term) or search query; what is left out is account 1's first page, unsorted. */
export type Query = Partial<ContactPageQuery> & { term?: string };

export const full = (q: Query) => ({ accountId: 1, sort: null, labels: null, limit: 50, offset: 0, ...q });

/** Either engine's contact search (both answer with promises). */
interface Searcher<T> {
  list(p: ContactPageQuery): T;
  search(p: ContactPageQuery & { term: string }): T;
}

/** The query's page: a list without a term, else a search. */
export function pageOf<T>(search: Searcher<T>, q: Query): T {
  const p = full(q);
  return p.term === undefined ? search.list(p) : search.search({ ...p, term: p.term });
}

export const asc = (column: ContactSortColumn) => ({ column, desc: false });
export const desc = (column: ContactSortColumn) => ({ column, desc: true });

/** Cases with the contacts they find, in order (keys of the fixture). */
export const EXPECTED: [string, Query, string[]][] = [
  ["name, 3+", { term: "martin" }, ["alice", "aliceCaps"]],
  ["mixed case", { term: "ALICE" }, ["alice", "aliceCaps"]],
  ["email, any case", { term: "example" }, ["alice", "bob"]],
  ["phone, inside", { term: "5550" }, ["alice", "emile", "ukPhone", "usPhone"]],
  ["company", { term: "sons" }, ["bob"]],
  ["phone, any case", { term: "flowers" }, ["vanity"]],
  ["identifier, its case", { term: "Alpha" }, ["alice"]],
  ["identifier, another case", { term: "alpha" }, []],
  ["accented", { term: "éMIL" }, ["emile"]],
  ["accented capitals", { term: "ÅNGS" }, ["zoe"]],
  ["Cyrillic", { term: "ИВА" }, ["ivan"]],
  ["Greek", { term: "ΌΛΓ" }, ["ivan"]],
  ["percent", { term: "50%" }, ["carol"]],
  ["underscore", { term: "f_s" }, ["carol"]],
  ["backslash", { term: "c\\d" }, ["carol"]],
  ["apostrophe", { term: "O'Brien" }, ["carol"]],
  ["double quotes", { term: '"Quotes"' }, ["carol"]],
  ["digits", { term: "1200" }, ["promo", "ukPhone", "usPhone", "oddPhone"]],
  ["plus and digits", { term: "+1200" }, ["promo", "usPhone"]],
  ["2 characters: prefixes only", { term: "al" }, ["alice", "aliceCaps"]],
  ["2 characters, capitals", { term: "Al" }, ["alice", "aliceCaps"]],
  ["1 character", { term: "z" }, ["zoe"]],
  ["name prefix", { term: "da" }, ["dana"]],
  ["short: email compared as stored", { term: "dx" }, []],
  ["short: É finds é, not É (NOCASE folds ASCII only)", { term: "É" }, ["eclair"]],
  ["short: between Z and a", { term: "[" }, ["bracket"]],
  ["short: @ is not [ or _", { term: "@" }, []],
  ["short: identifier, its case", { term: "CR" }, ["alice"]],
  ["short: identifier, another case", { term: "cr" }, []],
  ["short: identifier only", { term: "ID" }, ["idOnly"]],
  ["short: phone prefix", { term: "+4" }, ["zoe", "ukPhone"]],
  ["short: astral characters", { term: "👍🏿" }, ["thumbs"]],
  ["short: astral characters, not inside", { term: "😀x" }, []],
  ["short: digits after the plus", { term: "12" }, ["alice", "usPhone"]],
  ["labels", { labels: ["vip"] }, ["alice", "bob"]],
  ["labels, either", { labels: ["vip", "billing"] }, ["alice", "bob", "usPhone"]],
  ["labels, none", { labels: [] }, []],
  ["search and labels", { term: "alice", labels: ["vip"] }, ["alice"]],
  ["other account", { accountId: 2, term: "alice" }, ["otherAlice"]],
  ["other account, identifier", { accountId: 2, term: "Alpha" }, ["otherPromo"]],
  ["other account, plus", { accountId: 2, term: "+1200" }, ["otherPromo"]],
  ["other account, list", { accountId: 2 }, ["otherAlice", "otherPromo"]],
  [
    "list by name",
    { sort: asc("name") },
    // ASCII folded, then bytes: "" < "500" < "[" < "_" < letters < É < é < И < 👍; equal names by id.
    [
      ...["idOnly", "decoy", "bracket", "under", "alice", "aliceCaps", "bob", "carol", "dana", "oddPhone"],
      ...["promo", "smiley", "ukPhone", "usPhone", "vanity", "xavier", "zoe", "emile", "eclair", "ivan", "thumbs"],
    ],
  ],
  [
    "search by name, descending",
    { term: "q.io", sort: desc("name") },
    ["thumbs", "ivan", "eclair", "xavier", "smiley", "promo", "dana", "aliceCaps", "under", "bracket", "decoy"],
  ],
  [
    "list by activity, descending",
    { sort: desc("last_activity_at") },
    // Ties (300, 50) and the never active (last) by id descending.
    [
      ...["aliceCaps", "alice", "zoe", "emile", "decoy", "carol", "smiley", "thumbs", "vanity", "oddPhone"],
      ...["usPhone", "ukPhone", "promo", "idOnly", "under", "bracket", "dana", "xavier", "ivan", "eclair", "bob"],
    ],
  ],
];

// Contact search on SQLite (src/db/contacts-search.ts) finds the contacts each case names
// (test/helpers/contact-search-fixtures.ts): substrings from 3 characters, prefixes below, "+digits"
// from a phone number's start, labels, accounts, orders. PostgreSQL's twin is held to the same
// answers in test/db/contacts-search-postgres.test.ts.
import { describe, expect, test } from "bun:test";
import { ContactSearch } from "../../src/db/contacts-search.ts";
import { contactSearchFixture, EXPECTED, pageOf } from "../helpers/contact-search-fixtures.ts";

const { db, id } = contactSearchFixture();
const search = new ContactSearch(db);

describe("contact search finds what it should (SQLite)", () => {
  test.each(EXPECTED)("%s", async (_name, q, keys) => {
    const page = await pageOf(search, q);
    expect(page.rows.map((r) => r.id)).toEqual(keys.map((k) => id[k]!));
    expect(page.count).toBe(keys.length);
  });
});

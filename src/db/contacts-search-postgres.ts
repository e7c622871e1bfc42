// Contact list and search on PostgreSQL: the same contacts, order and counts as ContactSearch
// (src/db/contacts-search.ts) gives on SQLite for the same rows (test/db/contacts-search-postgres.test.ts).
// The dialect, once:
// - Terms of 3+ characters: SQLite matches phrases in FTS5 trigram tables; here LIKE on the columns,
//   which the pg_trgm GIN indexes of migration 006 serve (their expressions are repeated verbatim, and
//   so is their partial condition). The term is escaped (\ % _) so it matches literally, as a phrase
//   does. Name, email and company go through lower() as the indexes do (phone: ILIKE, its index
//   being on the column). Case: FTS5 folds with its own Unicode table, lower() with the database's
//   locale (libc or ICU); both fold ASCII and the accented Latin, Greek and Cyrillic capitals alike
//   (docs/architecture.md names the few letters they fold differently).
// - Short terms: SQLite's prefix ranges with the same bounds (prefixParams), compared as SQLite does:
//   bytes (COLLATE "C", which is memcmp as BINARY is), and for the NOCASE columns bytes of the text with
//   only A-Z folded (translate, not lower() or citext, which fold more). No index serves these here:
//   the account's resolved contacts are read (a later migration may add ordered indexes on them).
// - "+digits": PLUS_HITS' arms: the phone number's start (a range), name, email or company containing
//   it (behind contacts_resolved_plus's condition), the identifier containing it.
// - Counts: a count(*) statement, kept per account and term at the contact_search_version it was
//   taken at, as on SQLite (KeptCounts; migration 012's triggers bump the version on both engines),
//   for searches and the list without labels. Reading the version is a round trip; a common term's
//   count took ~20 ms of matching. The count comes first: it decides whether and how the page is read.
// - Orders: the same keys; text compared as SQLite compares it (COLLATE "C", ASCII-folded name, not
//   citext's lower()), NULLs placed by the explicit IS NULL keys SQLite's orders carry, so neither the
//   database's collation nor its NULL placement decides.
// - Labels: the same JSON array, read with json_array_elements_text instead of json_each.
// - Rows: numbers as SQLite gives them (the bridge turns BIGINT and NUMERIC into numbers).
import type { ContactRow } from "./contacts.repo.ts";
import {
  type ContactFinder,
  type ContactPage,
  type ContactPageQuery,
  type ContactSort,
  PHONE_FRAGMENT,
  prefixParams,
  RESOLVED_C,
  upper,
} from "./contacts-search.ts";
import { KeptCounts, LIST_TERM, SEARCH_VERSION_SQL } from "./contacts-search-counts.ts";
import type { PostgresDatabase } from "./postgres/database.ts";

/** The kept counts' version, and the planner's estimate of the contacts (a page's choice, readsHitsByIndex), in one read. */
const VERSION_AND_SIZE = `SELECT v.n, greatest(s.reltuples, 0)::bigint AS contacts
  FROM (${SEARCH_VERSION_SQL}) v, pg_class s WHERE s.oid = 'contacts'::regclass`;

/** SQLite's NOCASE: ASCII letters folded, nothing else. */
const nocase = (col: string) =>
  `translate(${col}::text, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') COLLATE "C"`;

/** Escapes LIKE's wildcards and its escape character, so a term matches as written. */
function likeLiteral(term: string): string {
  return term.replace(/[\\%_]/g, "\\$&");
}

/** ContactSearch's orders with SQLite's comparisons (see the header). */
function orderBy(sort: ContactSort | null): string {
  if (!sort) return "c.id ASC";
  const dir = sort.desc ? "DESC" : "ASC";
  switch (sort.column) {
    case "name":
      return `${nocase("c.name")} ${dir}, c.id ASC`;
    case "last_activity_at":
      return `c.last_activity_at IS NULL ASC, c.last_activity_at ${dir}, c.id ${dir}`;
    case "created_at":
      return `c.created_at ${dir}, c.id ${dir}`;
    default:
      return `c.${sort.column} IS NULL ${dir}, c.${sort.column} COLLATE "C" ${dir}, c.id ${dir}`;
  }
}

/** Positional parameters ($1, $2, …) collected while a statement is written. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * An unsorted page of hits comes either from a walk of the contacts in id order that stops at the page,
 * or from the hits' own indexes and a sort. The planner cannot know a term's count and may walk every
 * contact for 15 hits that are not there ("an", or a 3+ character term with a handful of hits, on a
 * million contacts: seconds). Knowing the count, the search chooses:
 * - a short term with at most FEW_HITS hits: its prefix indexes (cheap ranges);
 * - a longer term when the walk would read more than WALK_ROWS contacts (page end × contacts ÷ hits):
 *   its trigram indexes, whose bitmaps cost as much as its count (~14 ms on 20,000 contacts, against
 *   2–5 ms for a walk through dense hits).
 */
const FEW_HITS = 2_000;
const WALK_ROWS = 20_000;

/** How a page's hits are read (above): null = as the planner likes, the walk in id order for an unsorted page. */
export interface HitsKnown {
  hits: number;
  /** PostgreSQL's estimate of the contacts table's rows (pg_class.reltuples), when read. */
  contacts: number | null;
}

function readsHitsByIndex(p: ContactPageQuery, term: string | null, known: HitsKnown | null): boolean {
  if (term === null || p.sort || known === null) return false;
  if ([...term].length < 3) return known.hits <= FEW_HITS;
  return known.contacts !== null && ((p.offset + p.limit) * known.contacts) / Math.max(known.hits, 1) > WALK_ROWS;
}

/** The statements of one page: its count, then its rows (with the same parameters). */
export function pageSql(
  p: ContactPageQuery,
  term: string | null,
  known: HitsKnown | null = null,
): { count: string; page: string; values: unknown[] } {
  const params = new Params();
  let where = `c.account_id = ${params.add(p.accountId)} AND ${RESOLVED_C}`;
  if (term !== null) where += ` AND (${hits(term, params)})`;
  if (p.labels)
    where += ` AND c.id IN (SELECT l.contact_id FROM contact_labels l WHERE l.account_id = c.account_id
      AND l.title IN (SELECT json_array_elements_text(${params.add(JSON.stringify(p.labels))}::text::json)))`;
  const count = `SELECT count(*) AS count FROM contacts c WHERE ${where}`;
  // `c.id + 0` is the same order, which no index holds: the hits are found by their indexes, then sorted.
  const byIndex = readsHitsByIndex(p, term, known);
  const page = `SELECT c.* FROM contacts c WHERE ${where} ORDER BY ${byIndex ? "c.id + 0 ASC" : orderBy(p.sort)}
    LIMIT ${params.add(p.limit)} OFFSET ${params.add(p.offset)}`;
  return { count, page, values: params.values };
}

/**
 * Through the server's PostgreSQL database (src/db/postgres/database.ts), which answers with SQLite's
 * value types. Every statement goes to the read pool and is awaited (src/db/async-reads.ts): a search
 * that takes the server 20 ms does not stop this process for 20 ms.
 */
export class ContactSearchOnPostgres implements ContactFinder {
  private readonly counts = new KeptCounts();

  constructor(private readonly db: Pick<PostgresDatabase, "read">) {}

  list(p: ContactPageQuery): Promise<ContactPage> {
    return this.page(p, null);
  }

  search(p: ContactPageQuery & { term: string }): Promise<ContactPage> {
    return this.page(p, p.term);
  }

  private async page(p: ContactPageQuery, term: string | null): Promise<ContactPage> {
    const q = pageSql(p, term);
    const key = term ?? LIST_TERM;
    let count: number;
    let contacts: number | null = null;
    if (p.labels) count = await this.counted(q);
    else {
      const read = (await this.db.read(VERSION_AND_SIZE, [], false)).rows[0] as { n: number; contacts: number };
      const version = read.n;
      contacts = read.contacts;
      const kept = this.counts.kept(p.accountId, key, version);
      count = kept ?? (await this.counted(q));
      // Counted after the version was read, on a connection outside any transaction: committed rows
      // at that version or a later one (which moved the version on, so it never finds this count).
      if (kept === undefined) this.counts.keep(p.accountId, key, version, count);
    }
    // The count first: none (a term being typed that matches nothing) reads no page, and it decides
    // how the page's hits are read (readsHitsByIndex).
    if (count === 0 || p.offset >= count) return { count, rows: [] };
    const page = pageSql(p, term, { hits: count, contacts });
    return { count, rows: (await this.db.read(page.page, page.values, false)).rows as ContactRow[] };
  }

  private async counted(q: { count: string; values: unknown[] }): Promise<number> {
    return ((await this.db.read(q.count, q.values, false)).rows[0] as { count: number }).count;
  }
}

/** The condition a contact matching `term` meets: ContactSearch's FTS_HITS, PREFIX_HITS or PLUS_HITS. */
function hits(term: string, params: Params): string {
  if ([...term].length < 3) {
    const b = prefixParams(term);
    const range = (col: string, lo: string, hi: string) =>
      `(${col} >= ${params.add(lo)} AND ${col} < ${params.add(hi)})`;
    return [
      range(nocase("c.name"), b.lo, b.nocase_hi),
      range(`c.email COLLATE "C"`, b.lo, b.hi),
      range(`c.phone_number COLLATE "C"`, b.lo, b.hi),
      range(`c.phone_number COLLATE "C"`, b.plus_lo, b.plus_hi),
      range(`c.identifier COLLATE "C"`, b.exact_lo, b.exact_hi),
      range(nocase("c.company_name"), b.lo, b.nocase_hi),
    ].join(" OR ");
  }
  const anywhere = params.add(`%${likeLiteral(term)}%`);
  const identifier = `c.identifier LIKE ${anywhere}`;
  if (PHONE_FRAGMENT.test(term)) {
    // As migration 012's contacts_resolved_plus (strpos on the CITEXT columns), then the term itself.
    const t = params.add(term);
    return `(c.phone_number COLLATE "C" >= ${t} AND c.phone_number COLLATE "C" < ${params.add(upper(term))})
      OR ((strpos(c.name, '+') > 0 OR strpos(c.email, '+') > 0 OR strpos(c.company_name, '+') > 0)
        AND (strpos(c.name::text, ${t}) > 0 OR strpos(c.email, ${t}) > 0 OR strpos(c.company_name::text, ${t}) > 0))
      OR ${identifier}`;
  }
  // The expressions of contacts_search_name/email/company (lower(…)) and contacts_search_phone (ILIKE).
  return `lower(c.name::text) LIKE lower(${anywhere}::text) OR lower(c.email) LIKE lower(${anywhere}::text)
    OR c.phone_number ILIKE ${anywhere} OR lower(c.company_name::text) LIKE lower(${anywhere}::text) OR ${identifier}`;
}

// Contact list and search over resolved contacts (docs/compatibility.md #10). Terms of 3+ characters go
// through the trigram FTS5 tables (substring match from an index); shorter terms, which trigrams
// cannot answer, fall back to prefix ranges on the account's indexes.
import type { Database, Statement } from "bun:sqlite";
import { Batch, StatementCache } from "./batch.ts";
import { KeptCounts, LIST_TERM, SEARCH_VERSION_SQL } from "./contacts-search-counts.ts";
import { walkable, walkParams, walkSql } from "./contacts-search-walk.ts";
import type { ContactRow } from "./contacts.repo.ts";
import { writing } from "./tx.ts";

export const CONTACT_SORTS = ["name", "email", "phone_number", "last_activity_at", "created_at"] as const;
export type ContactSortColumn = (typeof CONTACT_SORTS)[number];
export interface ContactSort {
  column: ContactSortColumn;
  desc: boolean;
}

export interface ContactPageQuery {
  accountId: number;
  sort: ContactSort | null;
  labels: string[] | null;
  limit: number;
  offset: number;
}

export interface ContactPage {
  count: number;
  rows: ContactRow[];
}

// Verbatim the partial indexes' condition, so the planner can use them.
const RESOLVED = "(email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL)";

/** A contact list and search: ContactSearch on SQLite, ContactSearchOnPostgres on PostgreSQL. */
export interface ContactFinder {
  /** Awaited: on PostgreSQL the statements go to the read pool (async-reads.ts), committed rows only. */
  list(p: ContactPageQuery): Promise<ContactPage>;
  search(p: ContactPageQuery & { term: string }): Promise<ContactPage>;
}

/** The same for a contact aliased `c` (both engines' partial indexes repeat it). */
export const RESOLVED_C = "(c.email IS NOT NULL OR c.phone_number IS NOT NULL OR c.identifier IS NOT NULL)";

const FTS_HITS = `SELECT rowid AS id FROM contacts_search WHERE contacts_search MATCH $match
  UNION SELECT rowid AS id FROM contacts_identifier_search WHERE contacts_identifier_search MATCH $match_exact`;

// Every statement here names its index (INDEXED BY) or reads single rows by rowid: their plans do
// not depend on the planner's statistics (test/db/planner-statistics.test.ts).
// name and company are NOCASE columns: their upper bound is $nocase_hi (see prefixParams).
const PREFIX_HITS = `SELECT id FROM contacts INDEXED BY contacts_resolved_name WHERE account_id = $account_id AND ${RESOLVED} AND name >= $lo AND name < $nocase_hi
  UNION SELECT id FROM contacts INDEXED BY contacts_account_email WHERE account_id = $account_id AND email >= $lo AND email < $hi
  UNION SELECT id FROM contacts INDEXED BY contacts_account_phone WHERE account_id = $account_id AND phone_number >= $lo AND phone_number < $hi
  UNION SELECT id FROM contacts INDEXED BY contacts_account_phone WHERE account_id = $account_id AND phone_number >= $plus_lo AND phone_number < $plus_hi
  UNION SELECT id FROM contacts INDEXED BY contacts_account_identifier WHERE account_id = $account_id AND identifier >= $exact_lo AND identifier < $exact_hi
  UNION SELECT id FROM contacts INDEXED BY contacts_resolved_company WHERE account_id = $account_id AND ${RESOLVED} AND company_name >= $lo AND company_name < $nocase_hi`;

// A plus and digits ("+1200000"): a phone number's start (E.164 has its only "+" first), any text
// containing it among the few contacts with a "+" in name, email or company, and identifiers.
const PLUS_TEXT = "(instr(name, '+') > 0 OR instr(email, '+') > 0 OR instr(company_name, '+') > 0)";
const PLUS_HITS = `SELECT id FROM contacts INDEXED BY contacts_account_phone WHERE account_id = $account_id AND phone_number >= $lo AND phone_number < $hi
  UNION SELECT id FROM contacts INDEXED BY contacts_resolved_plus WHERE account_id = $account_id AND ${RESOLVED} AND ${PLUS_TEXT}
    AND (instr(name, $term) > 0 OR instr(email, $term) > 0 OR instr(company_name, $term) > 0)
  UNION SELECT rowid AS id FROM contacts_identifier_search WHERE contacts_identifier_search MATCH $match_exact`;
export const PHONE_FRAGMENT = /^\+\d+$/;

const LABELED =
  "SELECT contact_id FROM contact_labels INDEXED BY contact_labels_account_title WHERE account_id = $account_id AND title IN (SELECT value FROM json_each($labels))";
const LABELS = `c.id IN (${LABELED})`;

/** The index holding each sort's order (migrations 006, 032, 033), named so statistics cannot choose another. */
function sortIndex(sort: ContactSort): string {
  const index = {
    name: "name",
    created_at: "created",
    email: "email",
    phone_number: "phone",
    last_activity_at: sort.desc ? "active_first" : "active_last",
  }[sort.column];
  return ` INDEXED BY contacts_resolved_${index}`;
}

/**
 * Chatwoot's sorts: name case-insensitive; email/phone with Postgres' NULL placement; activity NULLS
 * LAST both ways. Ties (equal activity; contacts without an email or phone) by id the sort's way, the
 * order migration 033's indexes hold; a descending name keeps ids ascending (a short run to sort).
 */
function orderBy(sort: ContactSort | null, fallback: string): string {
  if (!sort) return fallback;
  const dir = sort.desc ? "DESC" : "ASC";
  switch (sort.column) {
    case "name":
      // COLLATE: a sorted search reads name through a scalar subquery, which loses the column's NOCASE.
      return `c.name COLLATE NOCASE ${dir}, c.id ASC`;
    case "last_activity_at":
      return `c.last_activity_at IS NULL ASC, c.last_activity_at ${dir}, c.id ${dir}`;
    case "created_at":
      // Never NULL; ties (an import's contacts share a second) by id the same way: one index walk.
      return `c.created_at ${dir}, c.id ${dir}`;
    default:
      // Postgres puts NULLs last ascending and first descending.
      return `c.${sort.column} IS NULL ${dir}, c.${sort.column} ${dir}, c.id ${dir}`;
  }
}

/**
 * The exclusive upper bound of a prefix range: the prefix with its last code point incremented
 * (a UTF-16 unit would split a surrogate pair), skipping the surrogates; "" for "" (an empty range).
 */
export function upper(prefix: string): string {
  const points = [...prefix];
  const last = points.pop()?.codePointAt(0);
  if (last === undefined) return "";
  return points.join("") + String.fromCodePoint(last === 0xd7ff ? 0xe000 : Math.min(last + 1, 0x10ffff));
}

/** PREFIX_HITS' parameters: the lower-cased term (name, email, phone, company), "+term" (phone), the term as typed (identifier). */
export interface PrefixBounds {
  lo: string;
  hi: string;
  nocase_hi: string;
  plus_lo: string;
  plus_hi: string;
  exact_lo: string;
  exact_hi: string;
}

/**
 * PREFIX_HITS' bounds for a short term. NOCASE compares ASCII-folded text, in which A-Z never
 * occur: a bound ending in one ("@" + 1 = "A", folded to "a") would let "[", "_" and the other
 * characters between "Z" and "a" through, so it is raised past them to "[".
 */
export function prefixParams(term: string): PrefixBounds {
  const lower = term.toLowerCase();
  const hi = upper(lower);
  return {
    lo: lower,
    hi,
    nocase_hi: /[A-Z]$/.test(hi) ? `${hi.slice(0, -1)}[` : hi,
    plus_lo: `+${term}`,
    plus_hi: upper(`+${term}`),
    exact_lo: term,
    exact_hi: upper(term),
  };
}

function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

export class ContactSearch implements ContactFinder {
  private readonly cache: StatementCache;
  private readonly rowsById: Batch<ContactRow>;

  private readonly othersStmt: Statement;
  private readonly versionStmt: Statement;
  private readonly counts = new KeptCounts();

  /** `walks`: whether a sorted page of a common term may walk its order (contacts-search-walk.ts); tests compare both. */
  constructor(
    private readonly db: Database,
    private readonly walks = true,
  ) {
    this.cache = new StatementCache(db);
    this.rowsById = new Batch<ContactRow>(db, "SELECT * FROM contacts WHERE id IN {ids}", "id");
    this.versionStmt = db.prepare(SEARCH_VERSION_SQL);
    // Two seeks in the resolved-contacts index: is any resolved contact not this account's?
    this.othersStmt = db.prepare(
      `SELECT EXISTS (SELECT 1 FROM contacts INDEXED BY contacts_resolved_name WHERE account_id < $account_id AND ${RESOLVED})
           OR EXISTS (SELECT 1 FROM contacts INDEXED BY contacts_resolved_name WHERE account_id > $account_id AND ${RESOLVED}) AS others`,
    );
  }

  /**
   * The search indexes hold every account's resolved contacts, so a hit must be checked against the
   * account (a row read per hit: 70 % of a count). When this account owns every resolved contact in
   * the database (the usual single-business server) every hit is its own and the check is skipped.
   */
  private ownsEveryHit(accountId: number): boolean {
    return (this.othersStmt.get({ account_id: accountId }) as { others: number }).others === 0;
  }

  /** Resolved contacts of the account, one page, with the total. */
  async list(p: ContactPageQuery): Promise<ContactPage> {
    const where = `c.account_id = $account_id AND ${RESOLVED_C}${p.labels ? ` AND ${LABELS}` : ""}`;
    // Without labels, the resolved contacts in id order (migration 032): the count reads that index
    // alone, and an unsorted page walks it and stops after its rows. With labels, the labelled ids lead.
    const byId = p.labels ? "" : " INDEXED BY contacts_resolved_id";
    const params = this.params(p);
    const counted = () =>
      (this.stmt(`SELECT count(*) AS n FROM contacts c${byId} WHERE ${where}`).get(params) as { n: number }).n;
    // Every resolved contact of a large account is ~90 ms of counting on a million: kept as a search's
    // count is (the list is the term ""; a search's term is never empty), since the same triggers
    // move the version when a contact is added, removed, or gains or loses what resolves it.
    const count = p.labels ? counted() : this.countOf(p.accountId, LIST_TERM, counted);
    if (count === 0 || p.offset >= count) return { count, rows: [] };
    // Every page walks the index of its order; a labelled page starts from the labelled ids.
    const byOrder = p.labels ? "" : p.sort ? sortIndex(p.sort) : byId;
    const from = `contacts c${byOrder}`;
    const rows = this.stmt(
      `SELECT c.* FROM ${from} WHERE ${where} ORDER BY ${orderBy(p.sort, "c.id ASC")} LIMIT $limit OFFSET $offset`,
    ).all({
      ...params,
      limit: p.limit,
      offset: p.offset,
    }) as ContactRow[];
    return { count, rows };
  }

  /** Resolved contacts whose name, email, phone or company contain `term` (any case) or whose identifier contains it (exact case). */
  async search(p: ContactPageQuery & { term: string }): Promise<ContactPage> {
    const short = [...p.term].length < 3;
    const plus = !short && PHONE_FRAGMENT.test(p.term);
    const hits = short ? PREFIX_HITS : plus ? PLUS_HITS : FTS_HITS;
    const params: Record<string, string | number> = this.params(p);
    if (plus) {
      Object.assign(params, { lo: p.term, hi: upper(p.term), term: p.term, match_exact: ftsPhrase(p.term) });
    } else if (short) {
      Object.assign(params, prefixParams(p.term));
    } else {
      Object.assign(params, { match: ftsPhrase(p.term), match_exact: ftsPhrase(p.term) });
    }
    // Each hit's account (and sort key) is a single-row rowid lookup in a scalar subquery: a join
    // to contacts would be planned from the statistics, and "1 row" statistics make it a scan of
    // every contact per hit.
    const of = (col: string) => `(SELECT ${col} FROM contacts WHERE id = h.id)`;
    const inAccount = `${of("account_id")} = $account_id${p.labels ? ` AND h.id IN (${LABELED})` : ""}`;
    // Prefix hits are already this account's resolved contacts: counting them needs no row reads.
    const hitsOnly = !p.labels && (short || this.ownsEveryHit(p.accountId));
    const where = hitsOnly ? "" : ` WHERE ${inAccount}`;
    const hitParams = hitsOnly && !short && !plus ? { match: params.match!, match_exact: params.match_exact! } : params;
    const counted = () =>
      (this.stmt(`SELECT count(*) AS n FROM (${hits}) h${where}`).get(hitParams) as { n: number }).n;
    const count = p.labels ? counted() : this.countOf(p.accountId, p.term, counted);
    if (count === 0 || p.offset >= count) return { count, rows: [] };
    const load = (ids: [number][]) => {
      const byId = this.rowsById.map(ids.map((r) => r[0]));
      return { count, rows: ids.map((r) => byId.get(r[0])!) };
    };
    if (this.walks && p.sort && !p.labels && !short && !plus && walkable(p.term, count, p.offset + p.limit)) {
      const walk = walkSql(
        `contacts c${sortIndex(p.sort)}`,
        `c.account_id = $account_id AND ${RESOLVED_C}`,
        orderBy(p.sort, ""),
      );
      const params = {
        account_id: p.accountId,
        ...walkParams(p.term, ftsPhrase(p.term)),
        limit: p.limit,
        offset: p.offset,
      };
      const ids = this.stmt(walk).values(params) as [number][];
      if (ids.length === p.limit) return load(ids);
    }
    // Unsorted, the page streams in hit (id) order and stops after offset + limit hits. Sorted, it
    // reads every hit's key (a row read each) and keeps the best offset + limit (SQLite's sorter
    // with a LIMIT). The count comes apart, usually kept: counted in the same pass (a window
    // function), it made SQLite sort every hit. Either way only the page's rows are loaded.
    const pageIds = p.sort
      ? `SELECT c.id FROM (SELECT h.id AS id, ${of(p.sort.column)} AS ${p.sort.column} FROM (${hits}) h${where}) c
        ORDER BY ${orderBy(p.sort, "")} LIMIT $limit OFFSET $offset`
      : `SELECT h.id FROM (${hits}) h${where} ORDER BY h.id LIMIT $limit OFFSET $offset`;
    return load(this.stmt(pageIds).values({ ...hitParams, limit: p.limit, offset: p.offset }) as [number][]);
  }

  private countOf(accountId: number, term: string, count: () => number): number {
    const version = (this.versionStmt.get() as { n: number }).n;
    return this.counts.of(accountId, term, version, writing(this.db), count);
  }

  private params(p: ContactPageQuery): Record<string, string | number> {
    const params: Record<string, string | number> = { account_id: p.accountId };
    if (p.labels) params.labels = JSON.stringify(p.labels);
    return params;
  }

  private stmt(sql: string): Statement {
    return this.cache.get(sql);
  }
}

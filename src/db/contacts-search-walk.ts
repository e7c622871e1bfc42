// A sorted contact search for a term that matches many contacts. Sorting every hit reads each
// hit's sort key (a row read per hit): ~130 ms for a term matching an eighth of a million contacts.
// When hits are that dense, the first page is near the start of the account's own index in the
// sort's order, so this walks that index instead, testing each row against the term, and stops
// after a fixed number of rows. Only the trigram search (SQLite) walks; PostgreSQL sorts as before.

/** Terms with fewer hits sort them all (a few ms); from here on a page is cheaper to walk to. */
export const WALK_FROM_HITS = 20_000;

/** The rows a walk reads at most (a few ms); a page not found within them falls back to the sort. */
export const WALK_ROWS = 2_000;

/**
 * Whether a page ending at hit `end` may be found by walking: the term printable ASCII (isHit is
 * exact only for those), with hits dense enough to expect the page early in the walk. A walk that
 * ends first has cost a few ms before a sort of 20,000 hits or more (25 ms and up).
 */
export function walkable(term: string, hits: number, end: number): boolean {
  return hits >= WALK_FROM_HITS && end * 32 <= WALK_ROWS && /^[\x20-\x7e]+$/.test(term);
}

/**
 * The characters outside ASCII that the trigram tokenizer folds into ASCII letters (KELVIN SIGN to
 * "k", LONG S to "s"), found by indexing every code point (test/db/contacts-search-walk.test.ts).
 */
const FOLDS_TO_ASCII = ["\u212a", "\u017f"];

const SEARCHED = ["name", "email", "phone_number", "company_name"] as const;

/**
 * Whether contact `c` is a hit, with the same answer as the search tables' MATCH. For an ASCII term
 * the trigram tokenizer's match is a substring of the text with A-Z folded, which is `lower()` and
 * `instr()` over the row's own columns, unless a column holds one of FOLDS_TO_ASCII; such rare rows
 * ask the search tables. The identifier's table folds nothing: `instr()` as it is.
 */
function isHit(): string {
  const folding = SEARCHED.flatMap((col) => FOLDS_TO_ASCII.map((ch) => `instr(c.${col}, '${ch}') > 0`)).join(" OR ");
  const contains = SEARCHED.map((col) => `instr(lower(c.${col}), $lower) > 0`).join(" OR ");
  return `CASE WHEN ${folding}
    THEN EXISTS (SELECT 1 FROM contacts_search WHERE contacts_search MATCH $match AND rowid = c.id)
      OR EXISTS (SELECT 1 FROM contacts_identifier_search WHERE contacts_identifier_search MATCH $match_exact AND rowid = c.id)
    ELSE ${contains} OR instr(c.identifier, $term) > 0 END`;
}

/**
 * A page of hits by walking the first WALK_ROWS of the account's resolved contacts in the sort's
 * order (`from` names that order's index, `where` the account's resolved contacts, `orderBy` the
 * order). The hits among those rows are the first hits in that order, so when the statement
 * returns a whole page it is the page; a short one says the walk ended first.
 */
export function walkSql(from: string, where: string, orderBy: string): string {
  const read = ["id", ...SEARCHED, "identifier", "last_activity_at", "created_at"].map((col) => `c.${col}`).join(", ");
  return `SELECT c.id FROM (SELECT ${read} FROM ${from} WHERE ${where} ORDER BY ${orderBy} LIMIT ${WALK_ROWS}) c
    WHERE ${isHit()} ORDER BY ${orderBy} LIMIT $limit OFFSET $offset`;
}

/** walkSql's parameters besides the account's. */
export function walkParams(term: string, match: string): Record<string, string> {
  return { term, lower: term.toLowerCase(), match, match_exact: match };
}

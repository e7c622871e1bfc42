// Exact contact-search counts kept between requests (both engines): counting every hit of a
// common term, or every contact for the list, is the slowest part of a page.

/** The kept count of the list (no term) goes by this term: a search's term is never empty. */
export const LIST_TERM = "";

/** Search counts kept (newest used): the terms agents are typing right now. */
const KEPT_COUNTS = 256;

/** The version kept counts are checked against: migration 012's triggers bump it (both engines). */
export const SEARCH_VERSION_SQL = "SELECT n FROM contact_search_version WHERE id = 1";

/**
 * Recent exact search counts by account and term, each with the contact_search_version it was taken
 * at: a count taken at the current version is still exact (migrations/012_query_plans.sql). Counts
 * are kept only when taken outside a transaction, so never from writes that may yet roll back; a
 * kept count is used inside one only while its version is unchanged, i.e. while the open
 * transaction has not changed a contact's searched fields. Both engines' searches use it.
 */
export class KeptCounts {
  private readonly counts = new Map<string, { version: number; n: number }>();

  /** The count of `term`'s hits in the account: kept, or counted now by `count`. */
  of(accountId: number, term: string, version: number, inTransaction: boolean, count: () => number): number {
    const kept = this.kept(accountId, term, version);
    if (kept !== undefined) return kept;
    const n = count();
    if (!inTransaction) this.keep(accountId, term, version, n);
    return n;
  }

  /** The count kept for `term` at `version`, if any. */
  kept(accountId: number, term: string, version: number): number | undefined {
    const kept = this.counts.get(`${accountId}\u0000${term}`);
    return kept && kept.version === version ? kept.n : undefined;
  }

  /** Keeps a count taken outside any transaction, at `version` or later (never at an earlier one). */
  keep(accountId: number, term: string, version: number, n: number): void {
    const key = `${accountId}\u0000${term}`;
    this.counts.delete(key);
    this.counts.set(key, { version, n });
    if (this.counts.size > KEPT_COUNTS) this.counts.delete(this.counts.keys().next().value!);
  }
}

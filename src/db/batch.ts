// Batch loading: the rows of a page's ids (its contacts, inboxes, labels…) with one execution of a
// statement of one arm per id, prepared once per list length, lengths rounded up to a power of two
// by arms bound to NO_ROW (not by repeating an id: a repeated arm repeats its rows). Not one statement over
// a JSON array: a join or IN-list over json_each is planned from the statistics, and with statistics
// taken while a table was small (sqlite_stat1 saying "1 row") SQLite scans the whole table for it,
// while an IN list of bound values on a rowid or an index is looked up value by value whatever the
// statistics say (test/db/planner-statistics.test.ts). One execution per page instead of one per id:
// 25 ids cost ~20 µs instead of ~85. Each arm is wrapped as a subquery, so an arm's own ORDER BY and
// LIMIT (the newest message of one conversation) stay its own. Statements whose SQL depends on a
// filter's shape are prepared once per shape.
import type { Database, Statement } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

type Params = Record<string, string | number>;

/** The longest list: a larger page is read in lists of this many. */
const MAX_LIST = 64;
/** Binds the padding arms: ids are positive rowids, so no row has it. */
const NO_ROW = -1;

/**
 * Each form also comes as a Reads (reads.ts), for endpoints that await their reads. The forms run
 * in place execute the statements directly: a generator's resumptions cost write paths and SQLite
 * ~10 % of a message list (measured in process).
 */
export class Batch<T> {
  private readonly one: TwoWayStatement;
  private readonly lists = new Map<number, TwoWayStatement>();

  /** `sql` holds `{ids}` where the ids go (each place), e.g. "SELECT * FROM contacts WHERE id IN {ids}". */
  constructor(
    private readonly db: Database,
    private readonly sql: string,
    private readonly key: keyof T & string,
  ) {
    this.one = new TwoWayStatement(db, sql.replaceAll("{ids}", "($id0)"));
  }

  /** The rows of each id, in the order the ids first appear (the statement's order within one id). */
  rows(ids: readonly number[], params: Params = {}): T[] {
    const { unique, calls } = this.plan(ids, params);
    return this.ordered(
      unique,
      calls.map(([statement, bound]) => statement.statement.all(bound) as T[]),
    );
  }

  *readRows(ids: readonly number[], params: Params = {}): Reads<T[]> {
    const { unique, calls } = this.plan(ids, params);
    const parts: T[][] = [];
    for (const [statement, bound] of calls) parts.push((yield statement.all(bound)) as T[]);
    return this.ordered(unique, parts);
  }

  /** Rows by their key (one row per key). */
  map(ids: readonly number[], params: Params = {}): Map<number, T> {
    return this.byKey(this.rows(ids, params));
  }

  *readMap(ids: readonly number[], params: Params = {}): Reads<Map<number, T>> {
    return this.byKey(yield* this.readRows(ids, params));
  }

  /** Rows grouped by their key, in the statement's order. */
  group(ids: readonly number[], params: Params = {}): Map<number, T[]> {
    return this.grouped(this.rows(ids, params));
  }

  *readGroup(ids: readonly number[], params: Params = {}): Reads<Map<number, T[]>> {
    return this.grouped(yield* this.readRows(ids, params));
  }

  /** The statements to run and their values: one id alone, or lists of at most MAX_LIST. */
  private plan(ids: readonly number[], params: Params): { unique: number[]; calls: [TwoWayStatement, Params][] } {
    const unique = [...new Set(ids)];
    if (unique.length === 1) return { unique, calls: [[this.one, { ...params, id0: unique[0]! }]] };
    const calls: [TwoWayStatement, Params][] = [];
    for (let start = 0; start < unique.length; start += MAX_LIST) {
      const part = unique.slice(start, start + MAX_LIST);
      const size = 2 ** Math.ceil(Math.log2(part.length));
      const bound: Params = { ...params };
      for (let i = 0; i < size; i++) bound[`id${i}`] = part[i] ?? NO_ROW;
      calls.push([this.list(size), bound]);
    }
    return { unique, calls };
  }

  private ordered(unique: readonly number[], parts: T[][]): T[] {
    if (unique.length <= 1) return parts[0] ?? [];
    const out = parts.flat();
    const position = new Map(unique.map((id, i) => [id, i]));
    // A stable sort: rows of one id keep the statement's order.
    return out.sort((a, b) => position.get(a[this.key] as number)! - position.get(b[this.key] as number)!);
  }

  private list(size: number): TwoWayStatement {
    let stmt = this.lists.get(size);
    if (!stmt) {
      // One arm per id, each the single-id statement: its plan is the one the planner test checks.
      const arms = Array.from(
        { length: size },
        (_, i) => `SELECT * FROM (${this.sql.replaceAll("{ids}", `($id${i})`)}) arm${i}`,
      );
      stmt = new TwoWayStatement(this.db, arms.join(" UNION ALL "));
      this.lists.set(size, stmt);
    }
    return stmt;
  }

  private byKey(rows: T[]): Map<number, T> {
    const map = new Map<number, T>();
    for (const row of rows) map.set(row[this.key] as number, row);
    return map;
  }

  private grouped(rows: T[]): Map<number, T[]> {
    const map = new Map<number, T[]>();
    for (const row of rows) {
      const k = row[this.key] as number;
      const list = map.get(k);
      if (list) list.push(row);
      else map.set(k, [row]);
    }
    return map;
  }
}

/**
 * Statements by their text, for statements written per request. By default bun:sqlite's (or the
 * PostgreSQL database's) prepared statements; `make` gives another kind, as the awaited reads do
 * (async-reads.ts).
 */
export class StatementCache<S extends { finalize(): void } = Statement> {
  private readonly cache = new Map<string, S>();

  /** `max`: how many to keep (the least recently used is finalized); shapes a client chooses need a bound. */
  constructor(
    db: Database,
    private readonly max = Number.POSITIVE_INFINITY,
    private readonly make: (sql: string) => S = (sql) => db.prepare(sql) as unknown as S,
  ) {}

  get(sql: string): S {
    let s = this.cache.get(sql);
    if (s) {
      this.cache.delete(sql);
      this.cache.set(sql, s);
      return s;
    }
    s = this.make(sql);
    this.cache.set(sql, s);
    if (this.cache.size > this.max) {
      const [oldest, stmt] = this.cache.entries().next().value!;
      this.cache.delete(oldest);
      stmt.finalize();
    }
    return s;
  }
}

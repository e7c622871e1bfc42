// Batch loading: the rows of a page's ids (its contacts, inboxes, labels…). Each id is its own
// execution of one prepared single-id statement (`IN ($id)`, which SQLite reads as `= $id`), not
// one statement over a JSON array: a join or IN-list over json_each is planned from the
// statistics, and with statistics taken while a table was small (sqlite_stat1 saying "1 row")
// SQLite scans the whole table for it, while a single-table lookup of one rowid or one key is
// planned the same whatever the statistics say (test/db/planner-statistics.test.ts). A page holds
// at most a few dozen ids; one execution costs ~1-2 µs. Statements whose SQL depends on a
// filter's shape are prepared once per shape.
import type { Database, Statement } from "bun:sqlite";

type Params = Record<string, string | number>;

export class Batch<T> {
  private readonly one: Statement;

  /** `sql` holds `{ids}` where the id goes, e.g. "SELECT * FROM contacts WHERE id IN {ids}". */
  constructor(
    db: Database,
    sql: string,
    private readonly key: keyof T & string,
  ) {
    this.one = db.prepare(sql.replace("{ids}", "($id)"));
  }

  /** The rows of each id, in the order the ids first appear. */
  rows(ids: readonly number[], params: Params = {}): T[] {
    const out: T[] = [];
    const bound: Params = { ...params, id: 0 };
    for (const id of new Set(ids)) {
      bound.id = id;
      for (const row of this.one.all(bound) as T[]) out.push(row);
    }
    return out;
  }

  /** Rows by their key (one row per key). */
  map(ids: readonly number[], params: Params = {}): Map<number, T> {
    const map = new Map<number, T>();
    for (const row of this.rows(ids, params)) map.set(row[this.key] as number, row);
    return map;
  }

  /** Rows grouped by their key, in the statement's order. */
  group(ids: readonly number[], params: Params = {}): Map<number, T[]> {
    const map = new Map<number, T[]>();
    for (const row of this.rows(ids, params)) {
      const k = row[this.key] as number;
      const list = map.get(k);
      if (list) list.push(row);
      else map.set(k, [row]);
    }
    return map;
  }
}

export class StatementCache {
  private readonly cache = new Map<string, Statement>();

  constructor(private readonly db: Database) {}

  get(sql: string): Statement {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.cache.set(sql, s);
    }
    return s;
  }
}

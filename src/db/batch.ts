// Batch loading: one statement for many ids. Ids travel as a JSON array to json_each; a single id
// (the common case: one conversation's view) takes a plain `IN ($id)` twin, which skips json_each
// (measured 1-2 µs against 6 µs per query). Statements whose SQL depends on a filter's shape are
// prepared once per shape.
import type { Database, Statement } from "bun:sqlite";

type Params = Record<string, string | number>;

export class Batch<T> {
  private readonly many: Statement;
  private readonly one: Statement;

  /** `sql` holds `{ids}` where the id list goes, e.g. "SELECT * FROM contacts WHERE id IN {ids}". */
  constructor(db: Database, sql: string, private readonly key: keyof T & string) {
    this.many = db.prepare(sql.replace("{ids}", "(SELECT value FROM json_each($ids))"));
    this.one = db.prepare(sql.replace("{ids}", "($id)"));
  }

  rows(ids: readonly number[], params: Params = {}): T[] {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    if (unique.length === 1) return this.one.all({ ...params, id: unique[0]! }) as T[];
    return this.many.all({ ...params, ids: JSON.stringify(unique) }) as T[];
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

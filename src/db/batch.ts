// Batch loading helpers: one statement for many ids (ids travel as a JSON array to json_each),
// and statements whose SQL depends on a filter's shape, prepared once per shape.
import type { Database, Statement } from "bun:sqlite";

/** Runs `stmt` with `$ids` = the unique ids and maps the rows by `key`. */
export function mapBy<T>(stmt: Statement, ids: readonly number[], key: keyof T & string, params: Record<string, string | number> = {}): Map<number, T> {
  const map = new Map<number, T>();
  if (ids.length === 0) return map;
  for (const row of stmt.all({ ...params, ids: JSON.stringify([...new Set(ids)]) }) as T[]) map.set(row[key] as number, row);
  return map;
}

/** Like mapBy, but several rows per key, in the statement's order. */
export function groupBy<T>(stmt: Statement, ids: readonly number[], key: keyof T & string): Map<number, T[]> {
  const map = new Map<number, T[]>();
  if (ids.length === 0) return map;
  for (const row of stmt.all({ ids: JSON.stringify([...new Set(ids)]) }) as T[]) {
    const k = row[key] as number;
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
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

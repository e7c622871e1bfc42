// Where PostgreSQL must be told something other than what SQLite is told. Most statements are
// written once and translated mechanically (src/db/postgres/translate.ts); a statement whose meaning
// needs other words on PostgreSQL names both texts here, side by side in the repository that runs it.
import type { Database } from "bun:sqlite";
import { isPostgres } from "./postgres/database.ts";

export function dialect(db: Database, sql: { sqlite: string; postgres: string }): string {
  return isPostgres(db) ? sql.postgres : sql.sqlite;
}

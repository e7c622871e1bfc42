// Applies PostgreSQL's migrations (src/db/migrations-postgres.ts). The version lives in one row of
// parley_schema (SQLite keeps PRAGMA user_version). Each migration runs in its own transaction —
// PostgreSQL's DDL is transactional, so a failure leaves the previous version, never half a
// migration — and an advisory lock held for the whole run makes processes that start together
// take turns: the first migrates, the others find nothing left to do.
import type { SQL } from "bun";
import { DatabaseTooNewError } from "./migrate.ts";
import type { Migration } from "./migrations.ts";
import { POSTGRES_MIGRATIONS } from "./migrations-postgres.ts";

/** pg_advisory_lock key of migrations ("parley" in ASCII, as a number). */
const MIGRATION_LOCK = 0x7061726c6579;

export async function postgresSchemaVersion(sql: SQL): Promise<number> {
  await sql.unsafe("CREATE TABLE IF NOT EXISTS parley_schema (version BIGINT NOT NULL)");
  const rows = (await sql.unsafe("SELECT version FROM parley_schema")) as { version: string }[];
  return rows.length ? Number(rows[0]!.version) : 0;
}

/** Applies pending migrations; returns the versions applied. Refuses a database newer than the binary. */
export async function migratePostgres(sql: SQL, migrations: Migration[] = POSTGRES_MIGRATIONS): Promise<number[]> {
  const latest = migrations.length ? migrations[migrations.length - 1]!.version : 0;
  const conn = await sql.reserve();
  try {
    await conn.unsafe(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      const current = await postgresSchemaVersion(conn);
      if (current > latest) throw new DatabaseTooNewError(current, latest);
      const applied: number[] = [];
      for (const m of migrations) {
        if (m.version <= current) continue;
        await conn.unsafe("BEGIN");
        try {
          await conn.unsafe(m.sql);
          await conn.unsafe("DELETE FROM parley_schema");
          await conn.unsafe(`INSERT INTO parley_schema (version) VALUES (${m.version})`);
          await conn.unsafe("COMMIT");
        } catch (error) {
          await conn.unsafe("ROLLBACK");
          throw new Error(`PostgreSQL migration ${m.name} failed: ${error instanceof Error ? error.message : error}`);
        }
        applied.push(m.version);
      }
      return applied;
    } finally {
      await conn.unsafe(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
    }
  } finally {
    conn.release();
  }
}

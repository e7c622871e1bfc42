// Opening PostgreSQL for `parley serve`: the migrations (under their own advisory lock, so processes
// starting together take turns), then the server's database on the synchronous bridge. Any number of
// servers may share the database: writers take turns (database.ts), and the background work runs in
// the process holding the lease (background-lease.ts).
import { migratePostgres } from "../migrate-postgres.ts";
import { connectPostgres } from "../postgres-connect.ts";
import { POSTGRES_MIGRATIONS } from "../migrations-postgres.ts";
import { PostgresDatabase } from "./database.ts";

/** The schema is older than this binary's: a command asks for `parley migrate` rather than migrating. */
export class PostgresSchemaBehindError extends Error {}

/**
 * For a one-shot command (token, password, bootstrap…): the database as it is, refused when its
 * schema is behind. Commands are synchronous and migrating needs Bun.SQL's promises; the server and
 * `parley migrate` migrate.
 */
export function openPostgresForCommand(url: string): PostgresDatabase {
  const db = new PostgresDatabase(url);
  const latest = POSTGRES_MIGRATIONS.at(-1)?.version ?? 0;
  const hasSchema = db.prepare("SELECT to_regclass('parley_schema') IS NOT NULL AS present").get() as {
    present: number;
  };
  const row = hasSchema.present
    ? (db.prepare("SELECT version FROM parley_schema").get() as { version: number } | null)
    : null;
  const version = row?.version ?? 0;
  if (version < latest) {
    db.close();
    throw new PostgresSchemaBehindError(
      `the PostgreSQL database's schema is at version ${version} and this binary needs ${latest}: ` +
        "run parley migrate --db (or start the server) first",
    );
  }
  return db;
}

export async function openPostgresServer(url: string): Promise<PostgresDatabase> {
  const sql = await connectPostgres(url);
  try {
    await migratePostgres(sql);
  } finally {
    await sql.close();
  }
  return new PostgresDatabase(url);
}

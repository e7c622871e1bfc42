// The PostgreSQL side of `parley migrate`, and the connection checks `parley copy` shares with it.
// Kept apart from commands.ts (which imports this statically) so the two do not import each other;
// the migrations themselves are imported when used, so `serve` does not load the second schema.
import type { SQL } from "bun";
import { isPostgresUrl } from "../config.ts";
import { connectPostgres } from "../db/postgres-connect.ts";
import { UsageError } from "./args.ts";
import type { Io } from "./context.ts";

/** What `migrate` prints on either engine. */
export function migrationSummary(applied: number[], version: number): string {
  return applied.length
    ? `applied migrations ${applied.join(", ")}; schema version ${version}`
    : `schema is up to date (version ${version})`;
}

/** The URL, checked for its scheme (Bun.SQL would also take other engines' URLs). */
export function postgresUrl(flag: string, value: string): string {
  const shape = "postgres://user:password@host:5432/database";
  if (!isPostgresUrl(value)) throw new UsageError(`--${flag} must be a postgres:// or postgresql:// URL (${shape})`);
  if (!URL.canParse(value)) throw new UsageError(`--${flag} is not a valid URL (${shape})`);
  return value;
}

/** user@host:port/database: the URL without its password, for messages. */
export function where(url: string): string {
  const u = new URL(url);
  return `${u.username ? `${decodeURIComponent(u.username)}@` : ""}${u.host}${u.pathname}`;
}

/** A connection that has answered once: a wrong host, password or database is one clear line, not a stack. */
export async function connect(url: string): Promise<SQL> {
  try {
    return await connectPostgres(url);
  } catch (error) {
    const e = error as { message?: string; code?: string };
    throw new Error(
      `cannot connect to PostgreSQL at ${where(url)}: ${e.message ?? error}${e.code ? ` (${e.code})` : ""}`,
    );
  }
}

/** `parley migrate --db postgres://…`: the same report as on SQLite. */
export async function migratePostgresAt(url: string, io: Io): Promise<number> {
  const { migratePostgres, postgresSchemaVersion } = await import("../db/migrate-postgres.ts");
  const sql = await connect(postgresUrl("db", url));
  try {
    const applied = await migratePostgres(sql);
    io.out(migrationSummary(applied, await postgresSchemaVersion(sql)));
  } finally {
    await sql.close();
  }
  return 0;
}

// The database a harness runs on: SQLite in memory, or — with PARLEY_TEST_ENGINE=postgres (npm run
// test:postgres) — a fresh PostgreSQL database copied from the migrated template the preload made
// (postgres-preload.ts). Harnesses are never closed by the tests that make them, so only the newest
// LIVE databases stay; older ones are closed and dropped (a test holds its harnesses only while it runs).
import type { Database } from "bun:sqlite";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { isPostgres, PostgresDatabase } from "../../src/db/postgres/database.ts";

export type TestEngine = "sqlite" | "postgres";
export const TEST_ENGINE: TestEngine = process.env.PARLEY_TEST_ENGINE === "postgres" ? "postgres" : "sqlite";

export const TEMPLATE_DATABASE = "parley_template";
const LIVE = 48;

let adminDb: PostgresDatabase | null = null;
/** The connection that makes and drops the test databases. */
const admin = () => (adminDb ??= new PostgresDatabase(serverUrl()));
const live: { name: string; db: PostgresDatabase }[] = [];
let made = 0;

function serverUrl(): string {
  const url = process.env.PARLEY_TEST_POSTGRES_URL;
  if (!url)
    throw new Error(
      "PARLEY_TEST_ENGINE=postgres needs the preload: bun test --preload ./test/helpers/postgres-preload.ts",
    );
  return url;
}

/** A new database copied from the migrated template: its name and URL. */
function copyOfTemplate(prefix: string): { name: string; url: string } {
  const name = `${prefix}_${process.pid}_${++made}`;
  admin().exec(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
  return { name, url: serverUrl().replace(/\/[^/]*$/, `/${name}`) };
}

/** A migrated, empty PostgreSQL database for server processes a test starts: its URL (kept till the end). */
export function freshPostgresUrl(): string {
  return copyOfTemplate("server").url;
}

function freshPostgres(): PostgresDatabase {
  const { name, url } = copyOfTemplate("harness");
  const db = new PostgresDatabase(url);
  live.push({ name, db });
  while (live.length > LIVE) {
    const old = live.shift()!;
    old.db.close();
    // FORCE: an awaited-body connection (held-connection.ts) closes without waiting for the server.
    admin().exec(`DROP DATABASE ${old.name} WITH (FORCE)`);
  }
  return db;
}

/** A migrated, empty database on the engine under test. */
export function freshDatabase(engine: TestEngine = TEST_ENGINE): Database {
  if (engine === "postgres") return freshPostgres().asDatabase();
  const db = openDatabase(":memory:");
  migrate(db);
  return db;
}

/** Parley's own tables and their columns, on either engine (SQLite's FTS5 tables and their shadows left out). */
export function userTables(db: Database): { name: string; columns: string[] }[] {
  if (isPostgres(db)) {
    const rows = db
      .query(
        `SELECT table_name AS name, string_agg(column_name::text, ',' ORDER BY ordinal_position) AS columns
         FROM information_schema.columns WHERE table_schema = current_schema() AND table_name <> 'parley_schema'
         GROUP BY table_name ORDER BY table_name`,
      )
      .all() as { name: string; columns: string }[];
    return rows.map((r) => ({ name: r.name, columns: r.columns.split(",") }));
  }
  const tables = db
    .query("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string; sql: string }[];
  const virtual = tables.filter((t) => /^CREATE VIRTUAL/i.test(t.sql)).map((t) => t.name);
  return tables
    .filter(({ name }) => !virtual.some((v) => name === v || name.startsWith(`${v}_`)))
    .map(({ name }) => ({
      name,
      columns: (db.query(`PRAGMA table_info("${name}")`).all() as { name: string }[]).map((c) => c.name),
    }));
}

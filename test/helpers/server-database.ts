// The database of a test that starts real server processes (and kills them): a SQLite file in the
// test's directory, or — under `npm run test:postgres` — a fresh PostgreSQL database made from the
// preload's template, so the crash scenarios run on both engines. `open()` is a connection for the
// test's own checks, with bun:sqlite's API on either engine.
import { Database as SqliteDatabase, type Database } from "bun:sqlite";
import { join } from "node:path";
import { PostgresDatabase } from "../../src/db/postgres/database.ts";
import { freshPostgresUrl, TEST_ENGINE } from "./test-database.ts";

export interface ServerDatabase {
  /** What `--db` gets: a file path or a postgres:// URL. */
  target: string;
  onPostgres: boolean;
  /** Where the installation keeps its files (SQLite's default beside the file, given on both engines). */
  storage: string;
  /** What every server of the installation needs in its environment (PostgreSQL: the secret key). */
  env: Record<string, string>;
  /** A connection for checks (close it afterwards). */
  open(): Database;
}

export function serverDatabase(dir: string, name: string): ServerDatabase {
  const file = join(dir, `${name}.db`);
  const storage = `${file}.files`;
  if (TEST_ENGINE === "postgres") {
    const target = freshPostgresUrl();
    return {
      target,
      onPostgres: true,
      storage,
      env: { PARLEY_SECRET_KEY: `the ${name} test's installation`, PARLEY_STORAGE: storage },
      open: () => new PostgresDatabase(target).asDatabase(),
    };
  }
  return {
    target: file,
    onPostgres: false,
    storage,
    env: { PARLEY_STORAGE: storage },
    open: () => new SqliteDatabase(file, { readonly: true }),
  };
}

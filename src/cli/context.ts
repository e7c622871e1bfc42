// What a subcommand needs to run: output streams, and a database opened and migrated the standard way.
import type { Database } from "bun:sqlite";
import { isPostgresUrl, loadConfig } from "../config.ts";
import { openPostgresForCommand } from "../db/postgres/open-postgres.ts";
import { migrate } from "../db/migrate.ts";
import { openDatabase } from "../db/open.ts";
import { createDeps, type Deps } from "../deps.ts";
import { createLogger } from "../lib/logger.ts";

export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** Reads a secret (a password) from the user; tests pass their own. */
  readSecret?(prompt: string): Promise<string>;
}

export interface Command {
  name: string;
  summary: string;
  run(argv: string[], io: Io): Promise<number> | number;
}

/** Opens (creating and migrating) the database a command names with --db or PARLEY_DB; closes it when fn (or its promise) is done. */
export function withDeps<T>(dbFlag: string | undefined, fn: (d: Deps) => T): T {
  const config = loadConfig({ db: dbFlag });
  const onPostgres = isPostgresUrl(config.db);
  const db: Database = onPostgres ? openPostgresForCommand(config.db).asDatabase() : openDatabase(config.db);
  let result: T;
  try {
    if (!onPostgres) migrate(db);
    // The command's events are the server's to handle: nothing runs after the command closes the database.
    result = fn(createDeps({ db, config, logger: createLogger("warn"), wakeListeners: false }));
  } catch (error) {
    db.close();
    throw error;
  }
  if (result instanceof Promise) return result.finally(() => db.close()) as T;
  db.close();
  return result;
}

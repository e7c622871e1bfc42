// What a subcommand needs to run: output streams, and a database opened and migrated the standard way.
import type { Database } from "bun:sqlite";
import { loadConfig } from "../config.ts";
import { migrate } from "../db/migrate.ts";
import { openDatabase } from "../db/open.ts";
import { createDeps, type Deps } from "../deps.ts";
import { createLogger } from "../lib/logger.ts";

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

export interface Command {
  name: string;
  summary: string;
  run(argv: string[], io: Io): Promise<number> | number;
}

/** Opens (creating and migrating) the database a command names with --db or PARLEY_DB. */
export function withDeps<T>(dbFlag: string | undefined, fn: (d: Deps) => T): T {
  const config = loadConfig({ db: dbFlag });
  const db: Database = openDatabase(config.db);
  try {
    migrate(db);
    return fn(createDeps({ db, config, logger: createLogger("warn") }));
  } finally {
    db.close();
  }
}

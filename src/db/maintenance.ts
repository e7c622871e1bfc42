// Whole-database operations the server and the CLI run: liveness, checkpoints, online copies.
import type { Database } from "bun:sqlite";
import { prepareRead, type ReadStatement } from "./async-reads.ts";
import { isPostgres } from "./postgres/database.ts";
import { writing } from "./tx.ts";

const ANSWERS = "SELECT 1 AS ok";
/** The pooled ping of each PostgreSQL database, prepared once (its text is translated at preparing). */
const pings = new WeakMap<object, ReadStatement>();

/**
 * Whether the database answers a query (GET /api's data_services). On PostgreSQL it asks on the
 * read pool and is awaited: the same server answers there, and a ping no longer holds the process
 * on the bridge (a stalled bridge fails pooled reads too).
 */
export function databaseAnswers(db: Database): boolean | Promise<boolean> {
  const engine: unknown = db;
  if (isPostgres(engine))
    return ping(db)
      .get<{ ok: number }>()
      .then(
        (row) => row?.ok === 1,
        () => false,
      );
  try {
    return (db.query(ANSWERS).get() as { ok: number } | null)?.ok === 1;
  } catch {
    return false;
  }
}

function ping(db: Database): ReadStatement {
  let statement = pings.get(db);
  if (!statement) pings.set(db, (statement = prepareRead(db, ANSWERS)));
  return statement;
}

/** Moves the WAL into the database file: PASSIVE never blocks writers; TRUNCATE at shutdown. */
export function checkpoint(db: Database, mode: "PASSIVE" | "TRUNCATE"): void {
  if (isPostgres(db)) return; // PostgreSQL checkpoints its own WAL
  db.exec(`PRAGMA wal_checkpoint(${mode})`);
}

/**
 * A passive checkpoint once no transaction is open on the connection (a group commit's, which
 * `settled` resolves when it commits; a group's after-commit work may open the next one).
 */
export async function checkpointWhenCommitted(
  db: Database,
  commits: { settled(): Promise<void> | null },
): Promise<void> {
  for (let waited = 0; writing(db) && waited < 10; waited++) await commits.settled();
  checkpoint(db, "PASSIVE");
}

/** An online, consistent copy: VACUUM INTO reads inside one transaction while writers go on. */
export function copyDatabaseTo(db: Database, path: string): void {
  db.prepare("VACUUM INTO ?").run(path);
}

/** How many accounts exist (the first `serve` creates one when there are none). */
export function accountCount(db: Database): number {
  return (db.query("SELECT COUNT(*) AS n FROM accounts").get() as { n: number }).n;
}

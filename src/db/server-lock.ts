// One server per SQLite database. Two `parley serve` processes on one file (say a systemd unit and a
// manual start, on different ports) would each run the event listeners, the webhook deliverer and
// the mail poller over the same rows: every webhook sent twice, automations applied twice, mail
// imported twice. SQLite cannot share that work between processes (serving several processes from
// PostgreSQL is still being built), so the second server is refused.
//
// The lock is SQLite's own file locking: the server holds an exclusive transaction on a small file
// beside the database (`<db>.lock`) for as long as it runs. The operating system drops the lock
// when the process dies, kill -9 included, so a restart never waits for a stale lock; other
// processes (the CLI, a backup, `parley copy`) never touch the lock file and read the database as
// before.
import { Database } from "bun:sqlite";

export interface ServerLock {
  readonly path: string;
  release(): void;
}

/** The lock file of a database file; null for a database in memory (nothing to share). */
export function serverLockPath(dbPath: string): string | null {
  return dbPath === ":memory:" || dbPath === "" ? null : `${dbPath}.lock`;
}

/** Another server holds the lock: the message says which file and what to do. */
export class ServerLockedError extends Error {}

/** Takes the database's server lock, or throws ServerLockedError when another server holds it. */
export function holdServerLock(dbPath: string): ServerLock | null {
  const path = serverLockPath(dbPath);
  if (path === null) return null;
  const lock = new Database(path, { create: true });
  try {
    // No busy timeout: a held lock is another live server, and waiting would not end.
    lock.exec("PRAGMA busy_timeout = 0");
    lock.exec("BEGIN EXCLUSIVE");
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
    throw new ServerLockedError(
      `another Parley server is running on ${dbPath} (it holds ${path}); stop it first. ` +
        "One SQLite database serves one process; several processes need PostgreSQL.",
    );
  }
  let held = true;
  return {
    path,
    release() {
      if (!held) return;
      held = false;
      lock.exec("ROLLBACK");
      lock.close();
    },
  };
}

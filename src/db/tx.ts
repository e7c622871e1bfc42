// writeTx is the only way services write. Its body must be synchronous: in bun:sqlite an `await`
// inside a transaction callback lets the transaction commit before the awaited work runs.
//
// Group commit (the server turns it on): a commit is the largest single cost of a small write
// (appending every dirty page to the WAL, and now and then a checkpoint), so the writes of all
// requests handled in one turn of the event loop share one transaction. Each writeTx is a
// savepoint inside it — a failing request undoes only its own writes — and the group commits in a
// setImmediate, after the loop has handed over every request that arrived together. Nobody may be
// told "done" before that commit: the HTTP layer holds each response until `commits.settled()`
// resolves (src/http/commit-wait.ts), and the after-commit hooks (event listeners, realtime) run
// only then.
import type { Database } from "bun:sqlite";

export type WriteTx = <T>(fn: () => T) => T;

export interface TxHooks {
  /** Runs after the outermost transaction commits (wakes event listeners). */
  afterCommit(): void;
  /** Runs after the outermost transaction rolls back (drops notifications of unwritten events). */
  afterRollback(): void;
  /** Runs just before COMMIT, inside the transaction (the crash tests' hook: see deps.ts). */
  beforeCommit?(): void;
}

export interface Commits {
  /** While writes wait for their group's commit: a promise of it (rejects if the commit failed); else null. */
  settled(): Promise<void> | null;
  /** Commits the open group now (before closing the database). */
  flush(): void;
}

interface Group {
  done: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function openGroup(): Group {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const done = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  done.catch(() => {}); // a failed commit is reported to the requests that wait, not as unhandled
  return { done, resolve, reject };
}

export function createWriteTx(
  db: Database,
  hooks: TxHooks,
  opts: { groupCommit?: boolean } = {},
): { writeTx: WriteTx; commits: Commits } {
  let depth = 0;
  let group: Group | null = null;

  const synchronousBody = <T>(fn: () => T) =>
    db.transaction(() => {
      const r = fn();
      if (r instanceof Promise) throw new Error("writeTx body must be synchronous (it returned a Promise)");
      return r;
    });

  const flush = () => {
    const g = group;
    if (!g) return;
    group = null;
    try {
      hooks.beforeCommit?.();
      db.run("COMMIT");
    } catch (error) {
      if (db.inTransaction) db.run("ROLLBACK");
      hooks.afterRollback();
      g.reject(error);
      return;
    }
    hooks.afterCommit();
    g.resolve();
  };

  const alone = <T>(fn: () => T): T => {
    let result: T;
    const body = hooks.beforeCommit
      ? () => {
          const r = fn();
          hooks.beforeCommit!();
          return r;
        }
      : fn;
    try {
      result = synchronousBody(body).immediate();
    } catch (error) {
      hooks.afterRollback();
      throw error;
    }
    hooks.afterCommit();
    return result;
  };

  const grouped = <T>(fn: () => T): T => {
    if (!group) {
      db.run("BEGIN IMMEDIATE");
      group = openGroup();
      setImmediate(flush);
    }
    // Inside the open transaction bun:sqlite makes this a savepoint: an error undoes this body only,
    // and the other requests' writes (and their pending events) stay.
    return synchronousBody(fn)();
  };

  const writeTx: WriteTx = <T>(fn: () => T): T => {
    // A nested call joins the outer transaction: a service may call another service's write path.
    if (depth > 0) return fn();
    depth++;
    try {
      return opts.groupCommit ? grouped(fn) : alone(fn);
    } finally {
      depth--;
    }
  };

  return { writeTx, commits: { settled: () => group?.done ?? null, flush } };
}

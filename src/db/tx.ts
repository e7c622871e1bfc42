// writeTx is the only way services write. `await writeTx(body)` is the form services use: it
// answers with a promise, so that bodies can become asynchronous (PostgreSQL's statements awaited on
// the reserved connection) without changing a caller again. `writeTx.now(body)` answers in place:
// the form for code inside another write's body, which cannot await (a service's `…Now` and
// `…InTx` methods; docs/architecture.md, "Transactions and group commit"). Both run the body at once, and today the body must be synchronous: in bun:sqlite an
// `await` inside a transaction callback lets the transaction commit before the awaited work runs.
// Nor may a body catch a failed statement and go on: SQLite undoes only the statement, but
// PostgreSQL aborts the transaction, and there the body fails with that statement's error
// (postgres/database.ts).
//
// Group commit (the server turns it on): a commit is the largest single cost of a small write
// (appending every dirty page to the WAL, and now and then a checkpoint), so the writes of all
// requests handled in one turn of the event loop share one transaction. Each writeTx is a
// savepoint inside it — a failing request undoes only its own writes — and the group commits in a
// setImmediate, after the loop has handed over every request that arrived together. Nobody may be
// told "done" before that commit: the HTTP layer holds each response until `commits.settled()`
// resolves (src/http/commit-wait.ts), and the after-commit hooks (event listeners, realtime) run
// only then.
//
// Shared reads (with group commit): outside a transaction every statement is a transaction of its
// own, and SQLite takes and drops its locks for each (~2 µs of system calls a statement; a message
// list runs twelve). So a request opens a read snapshot that every request of the same turn shares
// (`commits.shareReads()`), and the turn's setImmediate ends it. It sees only committed rows, and a
// write of the turn ends it before the write group begins: both groups hold one transaction.
import type { Database } from "bun:sqlite";
import { AwaitedWrites } from "./awaited-writes.ts";
import { isPostgres } from "./postgres/database.ts";
import { type Reads, readNow } from "./reads.ts";

const SNAPSHOT = Symbol("parley.readSnapshot");

/**
 * Whether a write transaction is open on `db`, one whose rows may yet roll back; a shared read
 * snapshot (above) is not one. Read through a property so that a view of the database (the
 * repositories' lazily preparing proxy) answers as the database itself. On PostgreSQL, code of an
 * awaited body (awaited-writes.ts) writes too, in the transaction of its own connection.
 */
export function writing(db: Database): boolean {
  if ((db as unknown as { heldBody?: boolean }).heldBody === true) return true;
  return db.inTransaction && (db as unknown as Record<symbol, boolean>)[SNAPSHOT] !== true;
}

export interface WriteTx {
  /** Runs `fn` in a write transaction (joining an open one); its result, or its error, as a promise. */
  <T>(fn: () => T): Promise<T>;
  /** The same, answered in place: for code inside another write's body, which cannot await. */
  now<T>(fn: () => T): T;
  /**
   * A body written as a Reads (reads.ts) that yields its statements, writes too: SQLite runs it in
   * place, as `writeTx`; PostgreSQL awaits each statement (awaited-writes.ts), serving other
   * requests meanwhile.
   */
  steps<T>(make: () => Reads<T>): Promise<T>;
}

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
  /** Opens the turn's shared read snapshot, unless a transaction is open (group commit only). */
  shareReads(): void;
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
  const marks = db as unknown as Record<symbol, boolean>;
  // On PostgreSQL each statement outside a transaction costs no lock of its own, and a BEGIN there
  // takes the writers' lock (postgres/database.ts): no shared reads.
  const readsShared = opts.groupCommit === true && !isPostgres(db);

  const synchronousBody = <T>(fn: () => T) =>
    db.transaction(() => {
      const r = fn();
      if (r instanceof Promise) throw new Error("writeTx body must be synchronous (it returned a Promise)");
      return r;
    });

  const flush = () => {
    endReads();
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

  const endReads = () => {
    if (!marks[SNAPSHOT]) return;
    marks[SNAPSHOT] = false;
    // A failed statement may have rolled it back already (SQLite does on some errors). Ending a
    // read cannot fail for want of a lock; should it fail anyway, it must not throw out of the
    // turn's setImmediate (that would end the process): a read has nothing to keep.
    try {
      if (db.inTransaction) db.run("COMMIT");
    } catch {
      if (db.inTransaction) db.run("ROLLBACK");
    }
  };

  const shareReads = () => {
    if (!readsShared || db.inTransaction) return;
    db.run("BEGIN"); // deferred: the first read takes the locks, once for the whole turn
    marks[SNAPSHOT] = true;
    setImmediate(endReads);
  };

  const grouped = <T>(fn: () => T): T => {
    if (!group) {
      endReads();
      db.run("BEGIN IMMEDIATE");
      group = openGroup();
      setImmediate(flush);
    }
    // Inside the open transaction bun:sqlite makes this a savepoint: an error undoes this body only,
    // and the other requests' writes (and their pending events) stay.
    return synchronousBody(fn)();
  };

  const engine: unknown = db;
  const awaited = isPostgres(engine) ? new AwaitedWrites(engine, hooks, () => group?.done ?? null) : null;

  const now = <T>(fn: () => T): T => {
    // A nested call joins the outer transaction: a service may call another service's write path.
    if (depth > 0) return fn();
    if (awaited?.busy)
      throw new Error("writeTx.now outside a transaction body while an awaited body writes: await writeTx(...)");
    depth++;
    try {
      return opts.groupCommit ? grouped(fn) : alone(fn);
    } finally {
      depth--;
    }
  };
  const writeTx = <T>(fn: () => T): Promise<T> => {
    if (depth === 0 && awaited?.busy) return awaited.inPlace(() => now(fn));
    try {
      return Promise.resolve(now(fn));
    } catch (error) {
      return Promise.reject(error);
    }
  };

  return {
    writeTx: Object.assign(writeTx, {
      now,
      steps: <T>(make: () => Reads<T>): Promise<T> => (awaited ? awaited.steps(make) : writeTx(() => readNow(make()))),
    }),
    commits: { settled: () => group?.done ?? null, flush, shareReads },
  };
}

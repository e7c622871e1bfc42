// A PostgreSQL database that answers the part of bun:sqlite's `Database` the repositories use
// (prepare/query → get/all/run/values, exec, run, transaction, inTransaction), so the same
// repositories, services and group commit run on either engine. Each statement is translated once
// (translate.ts) and sent through the synchronous bridge (sync-bridge.ts) on this database's one
// connection: like the one SQLite connection, it sees its own open transaction.
import type { Database } from "bun:sqlite";
import { type SyncBridge, sharedBridge } from "./sync-bridge.ts";
import { HeldConnection } from "./held-connection.ts";
import { PostgresStatement } from "./statement.ts";

type Params = unknown[];

// SQLite's ways to begin a transaction. Every transaction Parley begins writes, and SQLite lets one
// writer in at a time (BEGIN IMMEDIATE takes the write lock at once). On PostgreSQL the same comes
// from an advisory lock taken with BEGIN and held to the end, which several processes share: writers
// never wait on each other in a cycle (no deadlocks between them), and events — whose ids come from an
// identity — commit in the order of their ids, which the event bus and realtime read by.
const WRITERS_LOCK = "SELECT pg_advisory_xact_lock(5782993884054880256)"; // "PARLEY" and two zero bytes
const COMMITS_CHANNEL = "parley_commits";
/** What begins and commits a transaction on either connection (the bridge's, or held-connection.ts). */
export const BEGIN_WRITING = `BEGIN; ${WRITERS_LOCK}`;
export const COMMIT_AND_TELL = `NOTIFY ${COMMITS_CHANNEL}; COMMIT`;
const BEGIN = /^\s*BEGIN(\s+(IMMEDIATE|DEFERRED|EXCLUSIVE))?(\s+TRANSACTION)?\s*;?\s*$/i;
const END = /^\s*(COMMIT|END|ROLLBACK)(\s+TRANSACTION)?\s*;?\s*$/i;

export class PostgresDatabase {
  private depth = 0;
  private savepoints = 0;
  /** transaction() callbacks running: a failed statement in one fails it, and it is rolled back whole. */
  private bodies = 0;
  /** Savepoints whose bodies are done, released with the next script rather than in a round trip of their own. */
  private released: string[] = [];
  /** An unguarded statement's failure, and the savepoint depth it happened at: the transaction is aborted. */
  private failed: { depth: number; error: unknown } | null = null;
  /** The last notice sent by notifySoon, for the next to follow. */
  private lastNotice: Promise<unknown> = Promise.resolve();
  private heldConnection: HeldConnection | null = null;
  private claimsHolder: HeldConnection | null = null;
  /**
   * Set while an awaited transaction body's own code runs, between its statements (src/db/reads.ts,
   * readHeld): a statement sent in place then would run on the bridge's connection, outside the
   * body's transaction, and is refused.
   */
  heldBody = false;
  /** Tables with an `id` column: an INSERT into one returns it (bun:sqlite's lastInsertRowid). */
  readonly tablesWithId: Set<string>;

  constructor(
    readonly url: string,
    private readonly bridge: SyncBridge = sharedBridge(),
  ) {
    const rows = this.send(
      "SELECT table_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'id'",
      [],
    ).rows as { name: string }[];
    this.tablesWithId = new Set(rows.map((r) => r.name));
  }

  /** The connection awaited transaction bodies run on (held-connection.ts), opened at first use. */
  get held(): HeldConnection {
    this.heldConnection ??= new HeldConnection(this.url, () => this.bridge.deadlineMs);
    return this.heldConnection;
  }

  /**
   * The connection this process's claims on shared work are held on (work-claims.ts), opened at
   * first use: session advisory locks, kept apart from the transactions of the other two.
   */
  get claimsConnection(): HeldConnection {
    this.claimsHolder ??= new HeldConnection(this.url, () => this.bridge.deadlineMs);
    return this.claimsHolder;
  }

  /** The URL without its password: what logs and `filename` show. */
  get filename(): string {
    return this.url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /**
   * Which session statements run in: it changes when the connection was lost (PostgreSQL restarted)
   * and the next statement opened another, without the locks the old one held (background-lease.ts).
   */
  get session(): number {
    return this.bridge.session(this.url);
  }

  /**
   * A statement in a transaction but outside every transaction() body (the open group between two
   * requests' bodies) is guarded by a savepoint of its own (bridge-worker.ts): a failed one there
   * would abort the group, other requests' writes with it. Inside a body it needs none: a failure
   * throws out of the body, whose savepoint is rolled back whole, and no body catches a failed
   * statement and goes on (one that did fails all the same: asBody). Guarding a write costs a
   * second round trip, to move the savepoint.
   */
  send(text: string, params: unknown[], arrays = false): { rows: unknown[]; count: number } {
    if (this.heldBody)
      throw new Error(`a statement run in place inside an awaited transaction body: yield it (${text})`);
    const guard = this.depth > 0 && this.bodies === 0;
    try {
      return this.bridge.call({ kind: "query", url: this.url, text, params, arrays, guard });
    } catch (error) {
      if (!guard && this.depth > 0) this.failed ??= { depth: this.savepoints, error };
      throw error;
    }
  }

  /** A read on the read pool, awaited: other requests are served while it runs (async-reads.ts). */
  read(text: string, params: unknown[], arrays: boolean): Promise<{ rows: unknown[]; count: number }> {
    return this.bridge.read({ url: this.url, text, params, arrays });
  }

  prepare(sql: string): PostgresStatement {
    return new PostgresStatement(this, sql);
  }

  query(sql: string): PostgresStatement {
    return this.prepare(sql);
  }

  /** Statements without parameters, several at once (BEGIN/COMMIT are tracked as bun:sqlite does). */
  exec(sql: string): void {
    if (BEGIN.test(sql)) {
      this.bridge.call({ kind: "script", url: this.url, text: BEGIN_WRITING });
      this.depth = 1;
      return;
    }
    if (END.test(sql)) {
      this.depth = 0;
      this.released = []; // COMMIT ends them all; a ROLLBACK of an aborted transaction must come alone
      this.failed = null;
      // A commit tells every process listening (onCommits): their sockets hear it at once, not at
      // their next second's poll. NOTIFY is part of the transaction: a rollback sends nothing.
      const commit = /^\s*(COMMIT|END)/i.test(sql);
      this.bridge.call({ kind: "script", url: this.url, text: commit ? COMMIT_AND_TELL : sql });
      return;
    }
    this.bridge.call({ kind: "script", url: this.url, text: this.afterReleases(sql) });
  }

  /**
   * `sql` behind the releases still owed. Every one owed was taken after any savepoint still open,
   * so a rollback to one of those undoes them with the rest: they are dropped, not sent (a RELEASE in
   * an aborted transaction would fail, and the rollback behind it with it).
   */
  private afterReleases(sql: string): string {
    if (this.released.length === 0) return sql;
    const owed = this.released;
    this.released = [];
    if (/^\s*ROLLBACK\s+TO\b/i.test(sql)) return sql;
    return `${owed.map((name) => `RELEASE SAVEPOINT ${name}; `).join("")}${sql}`;
  }

  run(sql: string, ...params: Params): { changes: number; lastInsertRowid: number } {
    if (params.length === 0 && (BEGIN.test(sql) || END.test(sql))) {
      this.exec(sql);
      return { changes: 0, lastInsertRowid: 0 };
    }
    return this.prepare(sql).run(...params);
  }

  /** bun:sqlite's transaction(): BEGIN … COMMIT at the outside, a savepoint within one. */
  transaction<A extends unknown[], T>(fn: (...args: A) => T) {
    const wrapped = (...args: A): T => (this.inTransaction ? this.inSavepoint(fn, args) : this.outermost(fn, args));
    return Object.assign(wrapped, { immediate: wrapped, deferred: wrapped, exclusive: wrapped });
  }

  private outermost<A extends unknown[], T>(fn: (...args: A) => T, args: A): T {
    this.exec("BEGIN");
    try {
      const result = this.asBody(fn, args);
      this.exec("COMMIT");
      return result;
    } catch (error) {
      if (this.inTransaction) this.exec("ROLLBACK");
      throw error;
    }
  }

  /**
   * Runs a transaction body. One that caught a failed statement of its own and went on must not end
   * well: PostgreSQL aborted the transaction, and a COMMIT would roll back every request's writes
   * without a word. It fails with that statement's error, and its savepoint is rolled back.
   */
  private asBody<A extends unknown[], T>(fn: (...args: A) => T, args: A): T {
    this.bodies++;
    try {
      const result = fn(...args);
      if (this.failed && this.failed.depth >= this.savepoints) throw this.failed.error;
      return result;
    } finally {
      this.bodies--;
    }
  }

  // A body's savepoint is released with the next script (the next body's SAVEPOINT, or the COMMIT):
  // one round trip a body fewer. The statements run meanwhile sit inside it, which changes nothing.
  private inSavepoint<A extends unknown[], T>(fn: (...args: A) => T, args: A): T {
    const name = `parley_sp${++this.savepoints}`;
    try {
      this.exec(`SAVEPOINT ${name}`);
    } catch (error) {
      this.savepoints--; // not taken (an aborted transaction, a lost connection): nothing to roll back to
      throw error;
    }
    try {
      const result = this.asBody(fn, args);
      this.released.push(name);
      return result;
    } catch (error) {
      this.exec(`ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`);
      if (this.failed && this.failed.depth >= this.savepoints) this.failed = null;
      throw error;
    } finally {
      this.savepoints--;
    }
  }

  /** Calls `fn` after each write transaction committed on this database, by any process. */
  onCommits(fn: () => void): void {
    this.onNotice(COMMITS_CHANNEL, () => fn());
  }

  /** Calls `fn` with the payload of each notice on `channel`, from any process (this one included). */
  onNotice(channel: string, fn: (payload: string) => void): void {
    this.bridge.listen(this.url, channel, fn);
  }

  /**
   * Tells every process listening on `channel` now, outside any transaction: awaited on the read
   * pool, so the process serves on meanwhile. Notices sent this way leave in call order (each waits
   * for the one before), as one connection sends them: a "went offline" never overtakes its "came
   * online". Rejects if it could not be sent.
   */
  notifySoon(channel: string, payload: string): Promise<void> {
    const sent = this.lastNotice.then(() => this.read("SELECT pg_notify($1, $2)", [channel, payload], false));
    this.lastNotice = sent.catch(() => {});
    return sent.then(() => undefined);
  }

  close(): void {
    void this.heldConnection?.close();
    void this.claimsHolder?.close();
    this.bridge.call({ kind: "close", url: this.url });
  }

  /** Handed to code typed for bun:sqlite: it uses only what this class answers. */
  asDatabase(): Database {
    return this as unknown as Database;
  }
}

export function isPostgres(db: unknown): db is PostgresDatabase {
  return db instanceof PostgresDatabase;
}

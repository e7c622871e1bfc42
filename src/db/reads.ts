// Reads written once and run two ways. A presenter's batch loads (a page's contacts, inboxes,
// members, newest messages) serve read-only endpoints, which should await them (on PostgreSQL a
// statement through the synchronous bridge holds the whole process: async-reads.ts), and write
// paths and event payloads, which must run them in place, inside the open transaction. Written as
// generators that yield each statement they need, they are one piece of code for both:
//
//   *readContacts(ids) { const rows = (yield stmt.all({...})) as ContactRow[]; return ...; }
//
// `readNow` answers each step at once (bun:sqlite, or the bridge inside a writeTx); `readLater`
// awaits it (PostgreSQL's read pool: committed rows only, so only where the request has written
// nothing). A generator that needs another's rows composes it with `yield*`. Where a form run in
// place is hot (write paths, SQLite), repositories keep it as plain statement calls beside the
// generator: resuming generators cost ~10 % of a message list on SQLite (batch.ts).
import type { Database, Statement } from "bun:sqlite";
import { prepareRead, type ReadStatement } from "./async-reads.ts";
import { isPostgres } from "./postgres/database.ts";

/** One statement's execution, to run in place or to await. */
export interface Read {
  now(): unknown;
  later(): Promise<unknown>;
  /** Whether awaiting it gains anything: false on SQLite, where `later` would only wrap `now`. */
  readonly pooled: boolean;
}

/** A read of several statements: yields each Read, returns what they make. */
export type Reads<T> = Generator<Read, T, unknown>;

/** Runs every step in place: SQLite, or PostgreSQL's bridge inside the open transaction. */
export function readNow<T>(reads: Reads<T>): T {
  let r = reads.next();
  while (!r.done) r = reads.next(r.value.now());
  return r.value;
}

/**
 * Awaits every step on PostgreSQL's read pool (committed rows only). On SQLite the steps run in
 * place, without a turn of the microtask queue each: the message list has eight.
 */
export async function readLater<T>(reads: Reads<T>): Promise<T> {
  let r = reads.next();
  while (!r.done) r = reads.next(r.value.pooled ? await r.value.later() : r.value.now());
  return r.value;
}

type Params = Record<string, string | number | null> | unknown[];

/**
 * A statement with both forms: the repository's own (prepared as the database prepares, run in
 * place) and, on PostgreSQL, a pooled twin made at its first awaited use.
 */
export class TwoWayStatement {
  private twinStatement: ReadStatement | null = null;
  /** Whether its awaited form goes to PostgreSQL's read pool. */
  readonly pooled: boolean;
  readonly statement: Statement;

  constructor(
    private readonly db: Database,
    private readonly sql: string,
  ) {
    this.statement = db.prepare(sql);
    const engine: unknown = db;
    this.pooled = isPostgres(engine);
  }

  all(params: Params): Read {
    return {
      now: () => this.run("all", params),
      later: () => (this.pooled ? this.twin().all(...this.spread(params)) : Promise.resolve(this.run("all", params))),
      pooled: this.pooled,
    };
  }

  get(params: Params): Read {
    return {
      now: () => this.run("get", params) ?? null,
      later: () =>
        this.pooled ? this.twin().get(...this.spread(params)) : Promise.resolve(this.run("get", params) ?? null),
      pooled: this.pooled,
    };
  }

  finalize(): void {
    this.statement.finalize();
    this.twinStatement?.finalize();
  }

  private run(kind: "all" | "get", params: Params): unknown {
    return (this.statement[kind] as (...p: unknown[]) => unknown)(...this.spread(params));
  }

  private spread(params: Params): unknown[] {
    return Array.isArray(params) ? params : [params];
  }

  private twin(): ReadStatement {
    return (this.twinStatement ??= prepareRead(this.db, this.sql));
  }
}

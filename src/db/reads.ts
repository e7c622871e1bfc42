// Reads written once and run two ways. A presenter's batch loads (a page's contacts, inboxes,
// members, newest messages) serve read-only endpoints, which should await them (on PostgreSQL a
// statement through the synchronous bridge holds the whole process: async-reads.ts), and write
// paths and event payloads, which must run them in place, inside the open transaction. Written as
// generators that yield each statement they need, they are one piece of code for both:
//
//   *readContacts(ids) { const rows = (yield stmt.all({...})) as ContactRow[]; return ...; }
//
// `readNow` answers each step at once (bun:sqlite, or the bridge inside a writeTx); `readSoon`
// awaits the steps that go to PostgreSQL's read pool (committed rows only, so only where the
// request has written nothing). A generator that needs another's rows yields it through `nested`;
// several that need nothing of each other are one step through `all` (awaited, they run at once).
// Where a form run in place is hot (write paths, SQLite), repositories keep it as plain statement
// calls beside the generator (batch.ts).
import type { Database, Statement } from "bun:sqlite";
import { prepareRead, type ReadStatement } from "./async-reads.ts";
import { isPostgres } from "./postgres/database.ts";
import { PostgresStatement } from "./postgres/statement.ts";

/** One statement's execution, to run in place or to await. */
export interface Read {
  now(): unknown;
  later(): Promise<unknown>;
  /** Whether awaiting it gains anything: false on SQLite, where `later` would only wrap `now`. */
  readonly pooled: boolean;
  /**
   * PostgreSQL: the statement awaited on the connection of the transaction body under way (tx.ts,
   * writeTx.steps), where it sees that body's writes. Absent where it cannot run there.
   */
  held?(): Promise<unknown>;
}

/** What a Reads yields: a statement to run, or another Reads whose value it needs. */
export type Step = Read | Reads<unknown>;

/** A read of several statements: yields each step, returns what they make. */
export type Reads<T> = Generator<Step, T, unknown>;

/**
 * Another Reads as one step: `const rows = yield* nested(repo.readRows(ids))`. The driver runs it
 * on a stack of its own, so its statements do not each pass back through every `yield*` above it
 * (delegation allocates a result per level per step: five levels deep, the message list on SQLite
 * measured ~20 % fewer requests a second).
 */
export function* nested<T>(reads: Reads<T>): Reads<T> {
  return (yield reads) as T;
}

/**
 * Several Reads that need nothing of each other, as one step: `const [a, b] = yield* all(readA, readB)`.
 * Run in place they run one after the other, as nested ones would. Awaited, each runs as far as it can
 * at once: their statements are on PostgreSQL's read pool together, not one round trip after another.
 */
export function* all<T extends unknown[]>(...reads: { [K in keyof T]: Reads<T[K]> }): Reads<T> {
  return (yield new Together(reads as Reads<unknown>[])) as T;
}

/** A constant as a Reads, for a value some callers already have (an `all` of what is left to read). */
// biome-ignore lint/correctness/useYield: a Reads that needs no statement
export function* known<T>(value: T): Reads<T> {
  return value;
}

/** The step `all` yields. As a Read it runs in place; readSoon asks it `soon()` instead. */
class Together implements Read {
  readonly pooled = false;

  constructor(readonly reads: Reads<unknown>[]) {}

  now(): unknown[] {
    return this.reads.map((r) => readNow(r));
  }

  later(): Promise<unknown[]> {
    return Promise.all(this.reads.map((r) => readLater(r)));
  }

  /** Each started at once (readSoon); their values in place when none awaited anything. */
  soon(): unknown[] | Promise<unknown[]> {
    const values: unknown[] = [];
    try {
      for (const r of this.reads) values.push(readSoon(r));
    } catch (error) {
      // The ones already on their way are not waited for: their failures are not unhandled.
      for (const v of values) if (v instanceof Promise) v.catch(() => {});
      throw error;
    }
    return values.some((v) => v instanceof Promise) ? Promise.all(values) : values;
  }
}

/** `first`, then the Reads `next` makes of its value, as one Reads (a row, then what a page reads of it). */
export function* chain<A, B>(first: Reads<A>, next: (value: A) => Reads<B>): Reads<B> {
  return yield* nested(next(yield* nested(first)));
}

function isRead(step: Step): step is Read {
  return typeof (step as Read).now === "function";
}

type Advanced = { read: Read; done: false } | { value: unknown; done: true };

/** Resumes the stack of Reads with `input` until a statement is wanted or the outermost is done. */
function advance(stack: Reads<unknown>[], input: unknown): Advanced {
  for (;;) {
    const r = stack[stack.length - 1]!.next(input);
    if (r.done) {
      stack.pop();
      if (stack.length === 0) return { value: r.value, done: true };
      input = r.value;
    } else if (isRead(r.value)) {
      return { read: r.value, done: false };
    } else {
      stack.push(r.value);
      input = undefined;
    }
  }
}

/**
 * Runs every step in place: SQLite, or PostgreSQL's bridge inside the open transaction. The hot
 * driver (write paths run their bodies through it on SQLite), so it keeps the running Reads in a
 * local and allocates nothing of its own a step.
 */
export function readNow<T>(reads: Reads<T>): T {
  let top: Reads<unknown> = reads;
  let below: Reads<unknown>[] | null = null;
  let input: unknown;
  for (;;) {
    const r = top.next(input);
    if (r.done) {
      if (below === null || below.length === 0) return r.value as T;
      top = below.pop()!;
      input = r.value;
    } else if (isRead(r.value)) {
      input = r.value.now();
    } else {
      (below ??= []).push(top);
      top = r.value;
      input = undefined;
    }
  }
}

/**
 * Awaits the steps that go to PostgreSQL's read pool (committed rows only); the others, all of them
 * on SQLite, run in place. A Reads that awaited nothing answers its value itself, not a promise:
 * on SQLite a message list answered through promises (an async driver and an async route) measured
 * 10–25 % fewer requests a second under wrk, and 3 % with the route alone async.
 */
export function readSoon<T>(reads: Reads<T>): T | Promise<T> {
  const stack: Reads<unknown>[] = [reads];
  let step = advance(stack, undefined);
  while (!step.done) {
    const read = step.read;
    if (read instanceof Together) {
      const values = read.soon();
      if (values instanceof Promise) return awaitRest(stack, values);
      step = advance(stack, values);
    } else if (read.pooled) return awaitRest(stack, read.later());
    else step = advance(stack, read.now());
  }
  return step.value as T;
}

async function awaitRest<T>(stack: Reads<unknown>[], first: Promise<unknown>): Promise<T> {
  let step = advance(stack, await first);
  while (!step.done) {
    const read = step.read;
    step = advance(stack, read instanceof Together ? await read.soon() : read.pooled ? await read.later() : read.now());
  }
  return step.value as T;
}

/**
 * Awaits every step on the connection of the awaited transaction body under way (PostgreSQL,
 * tx.ts): the body's own writes and reads, one after another. While the body's own code runs
 * between them, `engine.heldBody` is set, so a statement sent in place by mistake fails at once
 * instead of running outside the transaction (postgres/database.ts).
 */
export async function readHeld<T>(reads: Reads<T>, engine: { heldBody: boolean }): Promise<T> {
  const stack: Reads<unknown>[] = [reads];
  let input: unknown;
  for (;;) {
    let step: Advanced;
    engine.heldBody = true;
    try {
      step = advance(stack, input);
    } finally {
      engine.heldBody = false;
    }
    if (step.done) return step.value as T;
    const read = step.read;
    if (read instanceof Together) {
      const values: unknown[] = [];
      for (const r of read.reads) values.push(await readHeld(r, engine));
      input = values;
    } else if (read.held) input = await read.held();
    else throw new Error("an awaited transaction body yielded a statement that cannot run on its connection");
  }
}

/** readSoon, always as a promise: for callers that await anyway. */
export async function readLater<T>(reads: Reads<T>): Promise<T> {
  return readSoon(reads);
}

type Params = Record<string, string | number | null> | unknown[];

/**
 * A statement with both forms: the repository's own (prepared as the database prepares, run in
 * place) and, on PostgreSQL, a pooled twin made at its first awaited use.
 */
export class TwoWayStatement {
  private twinStatement: ReadStatement | null = null;
  private heldStatement: PostgresStatement | null = null;
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

  // The drivers call `later` only for a pooled Read; elsewhere the twin would run in place anyway.
  all(params: Params): Read {
    return new StatementStep(this, "all", params);
  }

  get(params: Params): Read {
    return new StatementStep(this, "get", params);
  }

  /** A write: its value is bun:sqlite's `{ changes, lastInsertRowid }`. Never pooled (committed rows only). */
  write(params: Params): Read {
    return new StatementStep(this, "run", params);
  }

  /** An INSERT of one row, as a step form: its value is the new row's id. */
  *insertSteps(params: Params): Reads<number> {
    const run = (yield this.write(params)) as { lastInsertRowid: number | bigint };
    return Number(run.lastInsertRowid);
  }

  /** An UPDATE or DELETE as a step form: its value is how many rows it changed. */
  *changesSteps(params: Params): Reads<number> {
    return ((yield this.write(params)) as { changes: number }).changes;
  }

  /** A step's statement in place (StatementStep.now). */
  runNow(kind: StepKind, params: Params): unknown {
    const run = this.statement[kind] as (...p: unknown[]) => unknown;
    const value = Array.isArray(params) ? run.apply(this.statement, params) : run.call(this.statement, params);
    return kind === "get" ? (value ?? null) : value;
  }

  /** A step's statement on the read pool (StatementStep.later). */
  runLater(kind: StepKind, params: Params): Promise<unknown> {
    if (kind === "run") return Promise.reject(new Error("a write cannot run on the read pool"));
    return this.twin()[kind](...this.spread(params));
  }

  /** A step's statement on the awaited body's connection (StatementStep.held). */
  async runHeld(kind: StepKind, params: Params): Promise<unknown> {
    const held = this.heldForm();
    if (kind === "run") return held.runHeld(...this.spread(params));
    const rows = await held.allHeld(...this.spread(params));
    return kind === "get" ? (rows[0] ?? null) : rows;
  }

  finalize(): void {
    this.statement.finalize();
    this.twinStatement?.finalize();
  }

  private spread(params: Params): unknown[] {
    return Array.isArray(params) ? params : [params];
  }

  private heldForm(): PostgresStatement {
    const engine: unknown = this.db;
    if (!isPostgres(engine)) throw new Error("only PostgreSQL awaits a transaction body's statements");
    this.heldStatement ??= new PostgresStatement(engine, this.sql);
    return this.heldStatement;
  }

  private twin(): ReadStatement {
    return (this.twinStatement ??= prepareRead(this.db, this.sql));
  }
}

type StepKind = "all" | "get" | "run";

/**
 * One execution of a TwoWayStatement, as a Read. A class rather than an object of closures: a
 * message create yields some twenty of them, and on SQLite each runs in place at once.
 */
class StatementStep implements Read {
  constructor(
    private readonly statement: TwoWayStatement,
    private readonly kind: StepKind,
    private readonly params: Params,
  ) {}

  get pooled(): boolean {
    return this.kind !== "run" && this.statement.pooled;
  }

  now(): unknown {
    return this.statement.runNow(this.kind, this.params);
  }

  later(): Promise<unknown> {
    return this.statement.runLater(this.kind, this.params);
  }

  held(): Promise<unknown> {
    return this.statement.runHeld(this.kind, this.params);
  }
}

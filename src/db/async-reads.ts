// Statements a repository awaits instead of running in place. On PostgreSQL a statement through the
// synchronous bridge holds the whole process until the server answers (postgres/sync-bridge.ts);
// a report over a million conversations would stop every other request for its duration. A read
// prepared here goes to the bridge worker's read pool and is awaited, so the process serves other
// requests meanwhile, and several such reads run on the server at once. On SQLite it runs in place,
// as before (in the turn's read snapshot, src/db/tx.ts), and answers an already settled promise.
//
// What it sees: committed rows only. On PostgreSQL it runs on another connection than the open
// write transaction, so it is for reads that need nothing the same request wrote: read-only
// endpoints (reports), never inside a writeTx body. A repository converted to it is asynchronous all
// the way up; docs/architecture.md "Two engines" lists the ones that are.
import type { Database, Statement } from "bun:sqlite";
import { StatementCache } from "./batch.ts";
import { isPostgres } from "./postgres/database.ts";
import { PostgresStatement } from "./postgres/statement.ts";

type Params = unknown[];

export interface ReadStatement {
  all<Row>(...params: Params): Promise<Row[]>;
  get<Row>(...params: Params): Promise<Row | null>;
  /** Rows as arrays of values, in the statement's column order. */
  values<Value extends unknown[]>(...params: Params): Promise<Value[]>;
  /** Frees what the engine holds for it (SQLite's prepared statement). */
  finalize(): void;
}

/** SQLite: the statement runs at once, in place; the promise is already settled. */
class InPlaceRead implements ReadStatement {
  constructor(private readonly statement: Statement) {}

  async all<Row>(...params: Params): Promise<Row[]> {
    return this.statement.all(...(params as [])) as Row[];
  }

  async get<Row>(...params: Params): Promise<Row | null> {
    return this.statement.get(...(params as [])) as Row | null;
  }

  async values<Value extends unknown[]>(...params: Params): Promise<Value[]> {
    return this.statement.values(...(params as [])) as Value[];
  }

  finalize(): void {
    this.statement.finalize();
  }
}

/** PostgreSQL: the statement goes to the bridge's read pool and is awaited. */
class PooledRead implements ReadStatement {
  constructor(private readonly statement: PostgresStatement) {}

  async all<Row>(...params: Params): Promise<Row[]> {
    return (await this.statement.allAsync(...params)) as Row[];
  }

  async get<Row>(...params: Params): Promise<Row | null> {
    return ((await this.statement.allAsync(...params))[0] ?? null) as Row | null;
  }

  async values<Value extends unknown[]>(...params: Params): Promise<Value[]> {
    return (await this.statement.valuesAsync(...params)) as Value[];
  }

  finalize(): void {}
}

export function prepareRead(db: Database, sql: string): ReadStatement {
  const engine: unknown = db; // bun:sqlite's type would hide PostgresDatabase's own methods
  // Its own statement on PostgreSQL, not the database's prepare(): the server hands repositories a
  // view that prepares lazily (lazy-statements.ts), whose statements have no awaited forms.
  if (isPostgres(engine)) return new PooledRead(new PostgresStatement(engine, sql));
  return new InPlaceRead(db.prepare(sql));
}

/** Read statements by their text, for statements written per request (at most `max` kept). */
export function readStatementCache(db: Database, max: number): StatementCache<ReadStatement> {
  return new StatementCache(db, max, (sql) => prepareRead(db, sql));
}

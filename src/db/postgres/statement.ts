// One statement of a PostgreSQL database (database.ts), answering bun:sqlite's Statement methods
// the repositories use. Translated once (translate.ts); run in place through the synchronous bridge,
// awaited on the read pool (committed rows only), or awaited on the connection of the transaction
// body under way (held: src/db/tx.ts, writeTx.steps).
import type { PostgresDatabase } from "./database.ts";
import { type Translated, toPostgres } from "./translate.ts";

type Params = unknown[];

function bindable(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  return v;
}

export class PostgresStatement {
  private translated: Translated | null = null;

  constructor(
    private readonly db: PostgresDatabase,
    private readonly sql: string,
  ) {}

  private get statement(): Translated {
    this.translated ??= toPostgres(this.sql, this.db.tablesWithId);
    return this.translated;
  }

  /** The PostgreSQL text (tests check that PostgreSQL accepts every statement). */
  get text(): string {
    return this.statement.text;
  }

  private bind(args: Params): unknown[] {
    const { names, positional } = this.statement;
    if (names) {
      const fields = (args[0] ?? {}) as Record<string, unknown>;
      return names.map((n) => bindable(fields[n]));
    }
    const values = args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
    if (values.length < positional) throw new RangeError(`statement takes ${positional} values, got ${values.length}`);
    return values.slice(0, positional).map(bindable);
  }

  private rows(args: Params, arrays = false) {
    return this.db.send(this.statement.text, this.bind(args), arrays);
  }

  get(...args: Params): unknown {
    return this.rows(args).rows[0] ?? null;
  }

  all(...args: Params): unknown[] {
    return this.rows(args).rows;
  }

  values(...args: Params): unknown[] {
    return this.rows(args, true).rows;
  }

  /** all(), awaited instead of blocking: committed rows only (src/db/async-reads.ts). */
  async allAsync(...args: Params): Promise<unknown[]> {
    return (await this.db.read(this.statement.text, this.bind(args), false)).rows;
  }

  /** values(), awaited instead of blocking: committed rows only (src/db/async-reads.ts). */
  async valuesAsync(...args: Params): Promise<unknown[]> {
    return (await this.db.read(this.statement.text, this.bind(args), true)).rows;
  }

  run(...args: Params): { changes: number; lastInsertRowid: number } {
    return changesOf(this.rows(args));
  }

  /** all(), awaited on the connection of the awaited transaction body under way (its own rows too). */
  async allHeld(...args: Params): Promise<unknown[]> {
    return (await this.db.held.query(this.statement.text, this.bind(args), false)).rows;
  }

  /** run(), the same way. */
  async runHeld(...args: Params): Promise<{ changes: number; lastInsertRowid: number }> {
    return changesOf(await this.db.held.query(this.statement.text, this.bind(args), false));
  }

  /** Has PostgreSQL parse and plan it, without running it (test/db/statements-compile.test.ts). */
  check(): void {
    this.db.exec(`PREPARE parley_check AS ${this.statement.text}; DEALLOCATE parley_check`);
  }

  finalize(): void {}
}

/** bun:sqlite's answer to run(): an INSERT into a table with an id returns it (translate.ts). */
function changesOf({ rows, count }: { rows: unknown[]; count: number }): { changes: number; lastInsertRowid: number } {
  const last = rows[rows.length - 1] as { id?: number } | undefined;
  return { changes: count, lastInsertRowid: last?.id ?? 0 };
}

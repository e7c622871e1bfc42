// The repositories prepare their statements in their constructors, ~300 of them: ~8 ms of the
// server's start before it can answer anything. Handed this view of the database instead, each
// statement is prepared the first time it runs (tens of µs, once), so start-up pays only for what
// the first requests use. Everything but `prepare` is the database itself.
import type { Database, Statement } from "bun:sqlite";

export class LazyStatement {
  private statement: Statement | null = null;

  constructor(
    private readonly db: Database,
    private readonly sql: string,
  ) {}

  /** Prepares it now (test/db/statements-compile.test.ts: every statement compiles, as start-up used to prove). */
  check(): void {
    // bun:sqlite compiles as it prepares; PostgreSQL's statements are checked by the server.
    (this.prepared as { check?: () => void }).check?.();
  }

  private get prepared(): Statement {
    // A mistake in the SQL surfaces here, at first use, with the SQL named.
    return (this.statement ??= this.db.prepare(this.sql));
  }

  get(...params: unknown[]) {
    return (this.prepared.get as (...p: unknown[]) => unknown)(...params);
  }

  all(...params: unknown[]) {
    return (this.prepared.all as (...p: unknown[]) => unknown[])(...params);
  }

  run(...params: unknown[]) {
    return (this.prepared.run as (...p: unknown[]) => unknown)(...params);
  }

  values(...params: unknown[]) {
    return (this.prepared.values as (...p: unknown[]) => unknown[])(...params);
  }

  finalize(): void {
    this.statement?.finalize();
    this.statement = null;
  }
}

export function preparingLazily(db: Database): Database {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => new LazyStatement(target, sql) as unknown as Statement;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

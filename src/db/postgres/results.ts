// What Bun.SQL answers, made into what bun:sqlite would have answered, its failures classified, and
// the one way a transaction's connection is opened. Shared by the bridge's worker (bridge-worker.ts)
// and the connection the main thread awaits transaction bodies on (held-connection.ts), so both hand
// repositories the same values.
import type { ReservedSQL } from "bun";

/** A connection of its own for one session's transactions: a pool of one, that connection reserved. */
export async function openReserved(
  url: string,
): Promise<{ pool: InstanceType<typeof Bun.SQL>; reserved: ReservedSQL }> {
  // bigint: int8 columns (every integer column, see migrations/postgres/001) arrive as BigInt, not
  // as strings, and rowsOf makes them numbers, as bun:sqlite hands them over.
  const pool = new Bun.SQL(url, { max: 1, bigint: true, idleTimeout: 0, connectionTimeout: 10 });
  return { pool, reserved: await pool.reserve() };
}

/** SQLite's values: integers as numbers, truth as 1/0 (repositories compare with 1). */
function sqliteValue(v: unknown): unknown {
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "boolean") return v ? 1 : 0;
  return v;
}

// PostgreSQL's NUMERIC (what sum() of BIGINTs and avg() answer) arrives as text; SQLite answers a number.
const NUMERIC_OID = 1700;

export type Result = unknown[] & { count: number; columns?: { name: string; type: number }[] };

export function rowsOf(result: Result, arrays: boolean): unknown[] {
  const numeric = (result.columns ?? []).flatMap((c, i) => (c.type === NUMERIC_OID ? [arrays ? i : c.name] : []));
  const out = new Array(result.length);
  for (let i = 0; i < result.length; i++) {
    const row = result[i] as Record<string | number, unknown>;
    const copy = (arrays ? new Array((row as unknown as unknown[]).length) : {}) as Record<string | number, unknown>;
    for (const key in row) copy[key] = sqliteValue(row[key]);
    for (const key of numeric) if (typeof copy[key] === "string") copy[key] = Number(copy[key]);
    out[i] = copy;
  }
  return out;
}

/**
 * Whether the connection is gone: closed or reset under us, or ended by the server (a restart,
 * an administrator: SQLSTATE classes 08 and 57P). Bun.SQL does not reconnect a reserved
 * connection, and each later statement would fail the same way.
 */
export function connectionLost(code: string | null): boolean {
  return (
    code !== null && (code.startsWith("ERR_POSTGRES_CONNECTION") || /^(08|57P0)/.test(code) || code === "ECONNRESET")
  );
}

/** A failure's message and SQLSTATE (or Bun.SQL's own code), and whether the connection went with it. */
export function describeFailure(error: unknown): { message: string; code: string | null; lost: boolean } {
  const e = error as { message?: string; errno?: string; code?: string };
  const code = e.errno ?? e.code ?? null;
  return { message: String(e.message ?? error), code, lost: connectionLost(code) };
}

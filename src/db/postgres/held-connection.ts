// The connection awaited transaction bodies run on (src/db/tx.ts, writeTx.steps). Unlike the
// bridge's reserved connection (sync-bridge.ts), nothing here blocks the process: each statement is
// a Bun.SQL promise on this thread, and other requests are served while PostgreSQL answers. It is a
// connection of its own, so statements run in place meanwhile (a loader, a socket's replay) never
// see an awaited body's change half made; and the writers' lock (database.ts) that its BEGIN takes
// keeps it from writing at the same time as the bridge's transactions, in this process or another.
//
// A deadline, as the bridge has (PARLEY_DB_TIMEOUT_MS): the awaited bodies run one at a time, so a
// statement that never answers would hold every later write. PostgreSQL itself cancels a statement
// that runs past it (statement_timeout: a lock wait, a slow plan), and the connection stays usable.
// A server that does not answer at all (gone, or the network between) is caught here a moment later:
// the connection is dropped, and the next body opens another.
import { PostgresError } from "./sync-bridge.ts";
import { describeFailure, openReserved, type Result, rowsOf } from "./results.ts";

type Rows = { rows: unknown[]; count: number };
type Open = Awaited<ReturnType<typeof openReserved>>;

/** SQLSTATE query_canceled: what statement_timeout ends a statement with. */
const CANCELED = "57014";
/** How long past the server's own deadline an unanswered statement is given up on here. */
const GRACE_MS = 1_000;

export class HeldConnection {
  private open: Promise<Open> | null = null;
  private dropped = 0;

  constructor(
    private readonly url: string,
    /** How long a statement may run (read when a connection opens, and at each statement). */
    private readonly deadlineMs: () => number,
  ) {}

  /** One statement with parameters; rows as bun:sqlite gives them (results.ts). */
  async query(text: string, params: unknown[], arrays: boolean): Promise<Rows> {
    const { reserved } = await this.connection(text);
    try {
      const query = reserved.unsafe(text, params);
      const result = (await this.inTime(arrays ? query.values() : query, text)) as Result;
      return { rows: rowsOf(result, arrays), count: result.count ?? 0 };
    } catch (error) {
      throw this.failed(error, text);
    }
  }

  /** Statements without parameters, in the simple protocol (BEGIN, SAVEPOINT, COMMIT). */
  async script(text: string): Promise<void> {
    const { reserved } = await this.connection(text);
    try {
      await this.inTime(reserved.unsafe(text).simple(), text);
    } catch (error) {
      throw this.failed(error, text);
    }
  }

  /**
   * Which session statements run in: it changes the moment a connection is dropped (lost, past its
   * deadline, closed), and with it went whatever lived in that session (work-claims.ts).
   */
  get session(): number {
    return this.dropped;
  }

  async close(): Promise<void> {
    const open = this.open;
    this.open = null;
    if (!open) return;
    this.dropped++;
    const { pool, reserved } = await open.catch(() => ({ pool: null, reserved: null }));
    reserved?.release();
    await pool?.close({ timeout: 1 });
  }

  private connection(text: string): Promise<Open> {
    if (!this.open) {
      const open = this.openWithDeadline();
      this.open = open;
      open.catch(() => {
        if (this.open === open) this.open = null;
      });
    }
    return this.open.catch((error) => {
      throw this.failed(error, text);
    });
  }

  private async openWithDeadline(): Promise<Open> {
    const open = await openReserved(this.url);
    try {
      await open.reserved.unsafe(`SET statement_timeout = ${Math.max(1, Math.floor(this.deadlineMs()))}`).simple();
    } catch (error) {
      open.reserved.release();
      await open.pool.close({ timeout: 1 });
      throw error;
    }
    return open;
  }

  /** The statement's answer, or a lost connection's error once the server is past answering. */
  private inTime<T>(answer: Promise<T>, text: string): Promise<T> {
    const ms = this.deadlineMs() + GRACE_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const given = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        void this.close().catch(() => {});
        const message = `PostgreSQL did not answer within ${ms / 1000} s`;
        reject(new PostgresError(message, null, text, true));
      }, ms);
    });
    // The abandoned statement's own failure (the connection closed under it) is nobody's to hear.
    answer.catch(() => {});
    return Promise.race([answer, given]).finally(() => clearTimeout(timer));
  }

  /**
   * The error to throw. A lost connection is dropped (its transaction went with it): the next body
   * opens a new one, and this one's request answers 503 (src/http/errors.ts), as does a statement
   * the server ended at its deadline.
   */
  private failed(error: unknown, text: string): PostgresError {
    if (error instanceof PostgresError) return error;
    const { message, code, lost } = describeFailure(error);
    if (lost) void this.close().catch(() => {});
    return new PostgresError(message, code, text, lost || code === CANCELED);
  }
}

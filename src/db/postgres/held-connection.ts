// The connection awaited transaction bodies run on (src/db/tx.ts, writeTx.steps). Unlike the
// bridge's reserved connection (sync-bridge.ts), nothing here blocks the process: each statement is
// a Bun.SQL promise on this thread, and other requests are served while PostgreSQL answers. It is a
// connection of its own, so statements run in place meanwhile (a loader, a socket's replay) never
// see an awaited body's change half made; and the writers' lock (database.ts) that its BEGIN takes
// keeps it from writing at the same time as the bridge's transactions, in this process or another.
import { PostgresError } from "./sync-bridge.ts";
import { describeFailure, openReserved, type Result, rowsOf } from "./results.ts";

type Rows = { rows: unknown[]; count: number };
type Open = Awaited<ReturnType<typeof openReserved>>;

export class HeldConnection {
  private open: Promise<Open> | null = null;

  constructor(private readonly url: string) {}

  /** One statement with parameters; rows as bun:sqlite gives them (results.ts). */
  async query(text: string, params: unknown[], arrays: boolean): Promise<Rows> {
    const { reserved } = await this.connection(text);
    try {
      const query = reserved.unsafe(text, params);
      const result = (arrays ? await query.values() : await query) as Result;
      return { rows: rowsOf(result, arrays), count: result.count ?? 0 };
    } catch (error) {
      throw this.failed(error, text);
    }
  }

  /** Statements without parameters, in the simple protocol (BEGIN, SAVEPOINT, COMMIT). */
  async script(text: string): Promise<void> {
    const { reserved } = await this.connection(text);
    try {
      await reserved.unsafe(text).simple();
    } catch (error) {
      throw this.failed(error, text);
    }
  }

  async close(): Promise<void> {
    const open = this.open;
    this.open = null;
    if (!open) return;
    const { pool, reserved } = await open.catch(() => ({ pool: null, reserved: null }));
    reserved?.release();
    await pool?.close({ timeout: 1 });
  }

  private connection(text: string): Promise<Open> {
    if (!this.open) {
      const open = openReserved(this.url);
      this.open = open;
      open.catch(() => {
        if (this.open === open) this.open = null;
      });
    }
    return this.open.catch((error) => {
      throw this.failed(error, text);
    });
  }

  /**
   * The error to throw. A lost connection is dropped (its transaction went with it): the next body
   * opens a new one, and this one's request answers 503 (src/http/errors.ts).
   */
  private failed(error: unknown, text: string): PostgresError {
    const { message, code, lost } = describeFailure(error);
    if (lost) void this.close().catch(() => {});
    return new PostgresError(message, code, text, lost);
  }
}

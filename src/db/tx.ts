// writeTx is the only way services write. Its body must be synchronous: in bun:sqlite an `await`
// inside a transaction callback lets the transaction commit before the awaited work runs.
import type { Database } from "bun:sqlite";

export type WriteTx = <T>(fn: () => T) => T;

export interface TxHooks {
  /** Runs after the outermost transaction commits (wakes event listeners). */
  afterCommit(): void;
  /** Runs after the outermost transaction rolls back (drops notifications of unwritten events). */
  afterRollback(): void;
}

export function createWriteTx(db: Database, hooks: TxHooks): WriteTx {
  let depth = 0;
  return <T>(fn: () => T): T => {
    // A nested call joins the outer transaction: a service may call another service's write path.
    if (depth > 0) return fn();
    depth++;
    let result: T;
    try {
      result = db.transaction(() => {
        const r = fn();
        if (r instanceof Promise) throw new Error("writeTx body must be synchronous (it returned a Promise)");
        return r;
      }).immediate();
    } catch (error) {
      depth--;
      hooks.afterRollback();
      throw error;
    }
    depth--;
    hooks.afterCommit();
    return result;
  };
}

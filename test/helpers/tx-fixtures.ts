// What the transaction tests share: one turn of the event loop (a group's commit and a read
// snapshot's end both come with it), and SQLite files with one table `t`, removed after each test.
import { afterEach } from "bun:test";
import type { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/open.ts";
import { createWriteTx, type WriteTx } from "../../src/db/tx.ts";
import type { Reads } from "../../src/db/reads.ts";

export const turn = () => new Promise<void>((ok) => setImmediate(ok));

/** A maker of throwaway database files for the calling test file (each removed after its test). */
export function fileDatabases(): () => { db: Database; path: string } {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-tx-"));
    dirs.push(dir);
    const path = join(dir, "tx.db");
    const db = openDatabase(path);
    db.run("CREATE TABLE t (x INTEGER NOT NULL)");
    return { db, path };
  };
}

/** writeTx on `db`, counting the commits and rollbacks its hooks hear of. */
export function counting(db: Database, groupCommit: boolean) {
  const calls = { commits: 0, rollbacks: 0 };
  const tx = createWriteTx(
    db,
    { afterCommit: () => void calls.commits++, afterRollback: () => void calls.rollbacks++ },
    { groupCommit },
  );
  return { ...tx, calls };
}

/** `base`, calling `onBody` as each body starts (every form): to count a service's transactions. */
export function observedWriteTx(base: WriteTx, onBody: () => void): WriteTx {
  const now = <T>(fn: () => T): T => base.now(() => (onBody(), fn()));
  const steps = <T>(make: () => Reads<T>): Promise<T> => base.steps(() => (onBody(), make()));
  return Object.assign(<T>(fn: () => T): Promise<T> => base(() => (onBody(), fn())), { now, steps });
}

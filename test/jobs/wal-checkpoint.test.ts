// The minute's WAL checkpoint runs while the server's group commit may hold a transaction open
// (the every-second drain opens one in the same tick): a checkpoint inside it failed with
// "database table is locked" and was logged as a failed job. It now waits for the commit.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { createLogger } from "../../src/lib/logger.ts";

const dir = mkdtempSync(join(tmpdir(), "parley-checkpoint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the wal-checkpoint job", () => {
  test("with a group commit open it checkpoints after the commit, and the group's writes are kept", async () => {
    const path = join(dir, "parley.db");
    const db = openDatabase(path);
    migrate(db);
    const deps = createDeps({
      db,
      config: loadConfig({ db: path }, {}),
      logger: createLogger("silent"),
      groupCommit: true,
    });
    const job = deps.jobs.find((j) => j.name === "wal-checkpoint")!;
    const made = await deps.services.accounts.bootstrap({ account: "Acme", name: "Ann", email: "ann@acme.test" });
    expect(db.inTransaction).toBe(true); // the group commits in a setImmediate
    await job.run();
    expect(db.inTransaction).toBe(false);
    // The WAL was checkpointed into the file: a second checkpoint finds every frame done already.
    const [state] = db.query("PRAGMA wal_checkpoint(PASSIVE)").values() as number[][];
    expect(state![0]).toBe(0);
    expect(state![1]).toBe(state![2]);
    db.close();
    const reopened = openDatabase(path);
    expect(reopened.query("SELECT name FROM accounts WHERE id = ?").get(made.account_id)).toEqual({ name: "Acme" });
    reopened.close();
  });
});

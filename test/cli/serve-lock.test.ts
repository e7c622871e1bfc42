// One server per SQLite database: a second `parley serve` on the same file (on another port) would
// run the listeners and the webhook deliverer over the same rows and send everything twice. It is
// refused with a clear message and exit code 2; the lock dies with its process, kill -9 included.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli.ts";
import { holdServerLock, ServerLockedError, serverLockPath } from "../../src/db/server-lock.ts";
import { serveProcess } from "../helpers/server-process.ts";

const dir = mkdtempSync(join(tmpdir(), "parley-lock-"));
const procs: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of procs) p.kill(9);
  rmSync(dir, { recursive: true, force: true });
});

async function serveInProcess(db: string, port: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(["serve", "--db", db, "--port", port, "--host", "127.0.0.1"], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out, err };
}

describe("the server lock", () => {
  test("held once per database file; released, it can be taken again; none for a database in memory", () => {
    const db = join(dir, "unit.db");
    const first = holdServerLock(db)!;
    expect(first.path).toBe(`${db}.lock`);
    expect(() => holdServerLock(db)).toThrow(ServerLockedError);
    expect(() => holdServerLock(db)).toThrow(
      `another Parley server is running on ${db} (it holds ${db}.lock); stop it first. ` +
        "One SQLite database serves one process; several processes need PostgreSQL.",
    );
    first.release();
    first.release(); // twice is harmless
    const again = holdServerLock(db)!;
    again.release();
    expect(holdServerLock(":memory:")).toBeNull();
    expect(serverLockPath("")).toBeNull();
  });

  test("a second server on the same database exits 2 and the first keeps serving; after kill -9 a new one starts", async () => {
    const db = join(dir, "served.db");
    const first = await serveProcess(db, {}, procs);
    expect(first.token).not.toBeNull();

    const second = await serveInProcess(db, "0");
    expect(second.code).toBe(2);
    expect(second.err).toEqual([
      `parley serve: another Parley server is running on ${db} (it holds ${db}.lock); stop it first. ` +
        "One SQLite database serves one process; several processes need PostgreSQL.",
    ]);
    expect(second.out).toEqual([]);
    expect((await fetch(`${first.base}/health`)).status).toBe(200);

    first.proc.kill(9);
    await first.exited;
    // The operating system dropped the dead server's lock: the restart does not wait, and serves the same data.
    const third = await serveProcess(db, {}, procs);
    expect(third.token).toBeNull(); // not a first run: the account made by the first server is there
    const profile = await fetch(`${third.base}/api/v1/profile`, { headers: { api_access_token: first.token! } });
    expect(profile.status).toBe(200);
    expect((await profile.json()).email).toBe("admin@parley.local");
  });

  test("a server that stops on a busy port leaves the database unlocked", async () => {
    const busy = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("busy") });
    try {
      const db = join(dir, "busy-port.db");
      const refused = await serveInProcess(db, String(busy.port));
      expect(refused.code).toBe(2);
      expect(refused.err[0]).toContain("is already in use");
      const lock = holdServerLock(db)!;
      expect(lock.path).toBe(`${db}.lock`);
      lock.release();
    } finally {
      busy.stop(true);
    }
  });
});

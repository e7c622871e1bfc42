// A second server on a busy port stops with a clear message and exit code 2, before it writes
// anything (it used to start beside the first one, and requests alternated between the two).
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli.ts";

describe("parley serve on a busy port", () => {
  test("exits 2 saying the port is in use, and creates no account", async () => {
    // The first allows sharing, as an older Parley did: the second must still refuse.
    const busy = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      reusePort: true,
      fetch: () => new Response("the first server"),
    });
    const dir = mkdtempSync(join(tmpdir(), "parley-port-"));
    try {
      const out: string[] = [];
      const err: string[] = [];
      const db = join(dir, "second.db");
      const code = await runCli(["serve", "--db", db, "--port", String(busy.port), "--host", "127.0.0.1"], {
        out: (l) => out.push(l),
        err: (l) => err.push(l),
      });
      expect(code).toBe(2);
      expect(err).toEqual([
        `parley serve: port ${busy.port} on 127.0.0.1 is already in use (is another Parley or another server running there?)`,
      ]);
      expect(out).toEqual([]);
      const check = new Database(db);
      expect(check.query("SELECT count(*) AS n FROM accounts").get()).toEqual({ n: 0 });
      check.close();
      expect(await (await fetch(`http://127.0.0.1:${busy.port}/`)).text()).toBe("the first server");
    } finally {
      busy.stop(true);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

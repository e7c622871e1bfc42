// `parley platform-token`: a new platform app each time, its token printed once and usable.
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { capture } from "../helpers/cli.ts";

describe("parley platform-token", () => {
  test("--json prints one line with the app id and its token; the token authenticates as that app", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "parley-cli-")), "p.db");
    const c = capture();
    expect(await runCli(["platform-token", "--db", db, "--json"], c.io)).toBe(0);
    expect(c.out).toHaveLength(1);
    const first = JSON.parse(c.out[0]!);
    const token = first.api_access_token as string;
    expect(first).toEqual({
      platform_app_id: 1,
      api_access_token: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32}$/),
    });

    const plain = capture();
    expect(await runCli(["platform-token", "--db", db, "--name", "Billing"], plain.io)).toBe(0);
    expect(plain.out).toHaveLength(1);
    expect(plain.out[0]).toMatch(/^Created platform app 2\.\nPlatform API token \(shown once\): \w{32}$/);

    const conn = openDatabase(db);
    const d = createDeps({ db: conn, logger: createLogger("silent") });
    expect(d.services.platform.authenticate(token)).toMatchObject({ id: 1, name: "Platform app" });
    expect(conn.query("SELECT name FROM platform_apps ORDER BY id").all()).toEqual([
      { name: "Platform app" },
      { name: "Billing" },
    ]);
    // Only the hash is stored.
    expect(conn.query("SELECT COUNT(*) AS n FROM access_tokens WHERE token_hash = ?").get(token)).toEqual({ n: 0 });
    conn.close();
  });

  test("--db is required", async () => {
    const c = capture();
    expect(await runCli(["platform-token"], c.io)).toBe(2);
    expect(c.err[0]).toBe(
      'parley platform-token: --db is required for "platform-token" (see parley platform-token --help)',
    );
  });
});

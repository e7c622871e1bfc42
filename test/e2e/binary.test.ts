// Builds the real binary, runs it on a temp database and a free port, talks HTTP, restarts it,
// and reads the data back; signs in with what the first run printed; loads the embedded web app.
// This is what a user does; nothing here is mocked.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary } from "../helpers/binary.ts";
import { freePort } from "../helpers/free-port.ts";
import { postgresForFile } from "../helpers/postgres.ts";

const dir = mkdtempSync(join(tmpdir(), "parley-e2e-"));
const bin = join(dir, "parley");
const db = join(dir, "e2e.db");
const servers: Bun.Subprocess[] = [];

/** The binary serving `database` (e2e.db unless told) with these PARLEY_* settings; resolves once it listens. */
async function serve(
  port: number,
  database = db,
  env: Record<string, string> = {},
): Promise<{ proc: Bun.Subprocess<"ignore", "pipe", "pipe">; output: string }> {
  const proc = Bun.spawn([bin, "serve", "--db", database, "--port", String(port)], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, PARLEY_LOG_LEVEL: "warn", ...env },
  });
  servers.push(proc);
  const reader = proc.stdout.getReader();
  let output = "";
  const deadline = Date.now() + 10_000;
  while (!output.includes("listening") && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    output += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { proc, output };
}

beforeAll(() => buildBinary(bin), 120_000);
const pg = await postgresForFile("the compiled binary on PostgreSQL");

afterAll(() => {
  for (const p of servers) p.kill("SIGKILL");
});

describe("the compiled binary", () => {
  test("bootstrap, serve, HTTP, restart, data still there", async () => {
    const boot = Bun.spawnSync([
      bin,
      "bootstrap",
      "--db",
      db,
      "--account",
      "E2E Co",
      "--name",
      "Eve",
      "--email",
      "eve@e2e.test",
      "--json",
    ]);
    expect(boot.exitCode).toBe(0);
    const lines = boot.stdout.toString().trim().split("\n");
    expect(lines).toHaveLength(1);
    const { account_id, api_access_token } = JSON.parse(lines[0]!);
    expect(account_id).toBe(1);

    const port = await freePort();
    const first = await serve(port);
    expect(first.output).toContain(`Parley listening on http://127.0.0.1:${port}`);
    expect(first.output).not.toContain("First run"); // an account exists already: no second administrator
    const base = `http://127.0.0.1:${port}`;
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ status: "ok" });
    const headers = { api_access_token, "content-type": "application/json" };
    const patched = await fetch(`${base}/api/v1/accounts/1`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ name: "Renamed Co" }),
    });
    expect(patched.status).toBe(200);
    const spec = await (await fetch(`${base}/openapi/json`)).json();
    expect(spec.paths["/api/v1/accounts/{account_id}"]).toBeDefined();

    first.proc.kill("SIGTERM");
    expect(await first.proc.exited).toBe(0);

    const second = await serve(port);
    expect(second.output).toContain("listening");
    const account = await (await fetch(`${base}/api/v1/accounts/1`, { headers })).json();
    expect(account).toMatchObject({ id: 1, name: "Renamed Co" });
    const profile = await (await fetch(`${base}/api/v1/profile`, { headers })).json();
    expect(profile.email).toBe("eve@e2e.test");
    second.proc.kill("SIGTERM");
    expect(await second.proc.exited).toBe(0);
  }, 60_000);

  test("serve on an empty database prints a working token and a sign-in; parley password takes stdin", async () => {
    const emptyDb = join(dir, "first.db");
    const port = await freePort();
    const proc = Bun.spawn([bin, "serve", "--db", emptyDb, "--port", String(port)], { stdout: "pipe", stderr: "pipe" });
    servers.push(proc);
    const reader = proc.stdout.getReader();
    let output = "";
    while (!output.includes("listening")) {
      const { value, done } = await reader.read();
      if (done) break;
      output += new TextDecoder().decode(value);
    }
    const base = `http://127.0.0.1:${port}`;
    const token = /keep it\): (\S+)/.exec(output)?.[1];
    expect(token).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32}$/);
    const res = await fetch(`${base}/api/v1/profile`, { headers: { api_access_token: token! } });
    expect(res.status).toBe(200);
    expect((await res.json()).email).toBe("admin@parley.local");

    const signInLine = new RegExp(`^Sign in at ${base}/app as admin@parley\\.local with password (\\S+) `, "m").exec(
      output,
    );
    expect(signInLine).not.toBeNull();
    const signIn = (password: string) =>
      fetch(`${base}/auth/sign_in`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "admin@parley.local", password }),
      });
    const session = await signIn(signInLine![1]!);
    expect(session.status).toBe(200);
    const cookie = session.headers.get("set-cookie")!.split(";")[0]!;
    const viaCookie = await fetch(`${base}/api/v1/accounts/1`, { headers: { cookie } });
    expect((await viaCookie.json()).name).toBe("My Helpdesk");

    // A new password from piped stdin (first line), while the server runs: the old password and session stop working.
    const setPassword = Bun.spawnSync([bin, "password", "--db", emptyDb, "--email", "admin@parley.local"], {
      stdin: new TextEncoder().encode("piped password 42\nignored\n"),
    });
    expect(setPassword.exitCode).toBe(0);
    expect(setPassword.stdout.toString().trim()).toBe("Password set for user 1; 1 browser session(s) ended.");
    expect((await signIn(signInLine![1]!)).status).toBe(401);
    expect((await fetch(`${base}/api/v1/accounts/1`, { headers: { cookie } })).status).toBe(401);
    expect((await signIn("piped password 42")).status).toBe(200);
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
  }, 30_000);

  test("the web app and the website chat come from inside the binary: no files beside it", async () => {
    const alone = mkdtempSync(join(tmpdir(), "parley-alone-"));
    copyFileSync(bin, join(alone, "parley"));
    chmodSync(join(alone, "parley"), 0o755);
    const port = await freePort();
    const proc = Bun.spawn([join(alone, "parley"), "serve", "--db", join(dir, "alone.db"), "--port", String(port)], {
      cwd: alone,
      stdout: "pipe",
      stderr: "pipe",
    });
    servers.push(proc);
    const reader = proc.stdout.getReader();
    let output = "";
    while (!output.includes("listening"))
      output += new TextDecoder().decode((await reader.read()).value ?? new Uint8Array());
    expect(readdirSync(alone)).toEqual(["parley"]);
    const base = `http://127.0.0.1:${port}`;
    const page = await fetch(`${base}/app/accounts/1/settings/general`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.map((a) => a.replace(/-\w+\./, "-HASH."))).toEqual([
      "/app/assets/favicon-HASH.svg",
      "/app/assets/chunk-HASH.css",
      "/app/assets/chunk-HASH.js",
    ]);
    const types: string[] = [];
    for (const asset of assets) {
      const r = await fetch(`${base}${asset}`);
      expect(r.status).toBe(200);
      expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(100);
      types.push(r.headers.get("content-type")!);
    }
    expect(types).toEqual(["image/svg+xml", "text/css;charset=utf-8", "text/javascript;charset=utf-8"]);

    // The website chat too: the loader, and a website inbox's chat page with its own files.
    const loader = await fetch(`${base}/packs/js/sdk.js`);
    expect([loader.status, (await loader.text()).includes("chatwootSDK")]).toEqual([200, true]);
    const token = /API access token \(shown once, keep it\): (\S+)/.exec(output)![1]!;
    const created = await fetch(`${base}/api/v1/accounts/1/inboxes`, {
      method: "POST",
      headers: { api_access_token: token, "content-type": "application/json" },
      body: JSON.stringify({ name: "Site", channel: { type: "web_widget", website_url: "https://shop.example.com" } }),
    });
    const chat = await fetch(`${base}/widget?website_token=${(await created.json()).website_token}`);
    const chatHtml = await chat.text();
    expect([chat.status, chatHtml.includes('id="parley-config"')]).toEqual([200, true]);
    const chatAssets = [...chatHtml.matchAll(/(?:src|href)="(\/widget\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(chatAssets).toHaveLength(2);
    for (const asset of chatAssets) expect((await fetch(`${base}${asset}`)).status).toBe(200);
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    rmSync(alone, { recursive: true, force: true });
  }, 30_000);

  test("on PostgreSQL: the bridge's worker is inside the binary; SIGTERM stops it cleanly", async () => {
    if (pg.skip !== null) return console.warn(`binary on PostgreSQL: skipped — ${pg.skip}`);
    const url = await pg.server!.createDatabase("compiled_binary");
    const port = await freePort();
    const { proc, output } = await serve(port, url, {
      PARLEY_SECRET_KEY: "binary test key",
      PARLEY_STORAGE: join(dir, "pg-files"),
    });
    expect(output).toContain("listening");
    const token = /keep it\): (\S+)/.exec(output)![1]!;
    const headers = { api_access_token: token, "content-type": "application/json" };
    const base = `http://127.0.0.1:${port}/api/v1/accounts/1`;
    const label = await fetch(`${base}/labels`, { method: "POST", headers, body: JSON.stringify({ title: "pg" }) });
    expect([label.status, (await label.json()).title]).toEqual([200, "pg"]);
    const labels = await (await fetch(`${base}/labels`, { headers })).json();
    expect(labels.payload.map((l: { title: string }) => l.title)).toEqual(["pg"]);
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
  }, 30_000);

  test("a bad flag exits 2 with a message, not a stack trace", () => {
    const r = Bun.spawnSync([bin, "serve", "--port"], { stderr: "pipe" });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.toString().trim()).toBe("parley serve: --port needs a value");
  });
});

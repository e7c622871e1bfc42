// `parley serve --db postgres://…` as its own process on a throwaway PostgreSQL: the first run, the
// API over real HTTP (a conversation, its messages, contact search through the trigram path, a
// filter), a second server on the same database, kill -9 and a restart that finds everything;
// and moving over: a SQLite installation copied with `parley copy`, then served from PostgreSQL with
// the same tokens; a statement left unanswered (the server exits to be started again); PostgreSQL
// restarted under a running server. Skips, with the reason, where PostgreSQL is not installed.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli.ts";
import { copyDatabaseTo } from "../../src/db/maintenance.ts";
import { POSTGRES_MIGRATIONS } from "../../src/db/migrations-postgres.ts";
import { openDatabase } from "../../src/db/open.ts";
import { STALLED_EXIT_CODE } from "../../src/server.ts";
import { CableClient } from "../helpers/cable.ts";
import { capture } from "../helpers/cli.ts";
import { installation } from "../helpers/installation.ts";
import { postgresForFile } from "../helpers/postgres.ts";
import { serveProcess } from "../helpers/server-process.ts";
import { startReceiver } from "../helpers/webhooks.ts";

const procs: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of procs) p.kill(9);
});
const env = {
  PARLEY_SECRET_KEY: "a test key that every process of this installation shares",
  PARLEY_STORAGE: mkdtempSync(join(tmpdir(), "parley-pg-files-")),
};
const { server, skip } = await postgresForFile("parley serve on PostgreSQL");

/** `bun src/main.ts ARGS` with the installation's environment. */
function cli(args: string[]) {
  const r = Bun.spawnSync([process.execPath, "src/main.ts", ...args], {
    cwd: join(import.meta.dir, "../.."),
    env: { ...process.env, ...env },
  });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

async function call(base: string, token: string, method: string, path: string, body?: unknown) {
  const r = await fetch(`${base}/api/v1/accounts/1${path}`, {
    method,
    headers: { api_access_token: token, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as any };
}

describe.skipIf(skip !== null)("parley serve on PostgreSQL", () => {
  test("serves the API, shares the database with a second server, and keeps everything through kill -9", async () => {
    const url = await server!.createDatabase("served");
    const first = await serveProcess(url, env, procs);
    const token = first.token!;
    expect(token).toMatch(/^\S{20,}$/);
    const api = (method: string, path: string, body?: unknown) => call(first.base, token, method, path, body);

    const inbox = await api("POST", "/inboxes", { name: "Support", channel: { type: "api" } });
    expect(inbox.status).toBe(200);
    const contact = await api("POST", "/contacts", { name: "Zoë Castillo", email: "zoe@example.com" });
    expect(contact.status).toBe(200);
    const contactId = contact.body.payload.contact.id;
    const conversation = await api("POST", "/conversations", {
      inbox_id: inbox.body.id,
      contact_id: contactId,
      message: { content: "My order never came" },
    });
    expect(conversation.status).toBe(200);
    const c = conversation.body.id;
    const reply = await api("POST", `/conversations/${c}/messages`, { content: "Sorry! Sending another today." });
    expect([reply.status, reply.body.content, reply.body.message_type]).toEqual([
      200,
      "Sorry! Sending another today.",
      1,
    ]);

    const found = await api("GET", "/contacts/search?q=castil");
    expect([found.body.meta.count, found.body.payload.map((x: { id: number }) => x.id)]).toEqual([1, [contactId]]);
    const filtered = await api("POST", "/conversations/filter", {
      payload: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }],
    });
    expect([filtered.status, filtered.body.meta.all_count]).toEqual([200, 1]);

    // A second server shares the database (several processes: test/e2e/postgres-processes.test.ts).
    const second = await serveProcess(url, env, procs);
    expect(second.token).toBeNull();
    const seen = await call(second.base, token, "GET", `/conversations/${c}`);
    expect([seen.status, seen.body.id]).toEqual([200, c]);
    second.proc.kill(9);
    await second.exited;

    // The command line works on PostgreSQL too, beside the running server.
    const issued = cli(["token", "--db", url, "--email", "admin@parley.local", "--json"]);
    expect([issued.code, issued.err]).toEqual([0, ""]);
    const fresh = JSON.parse(issued.out).api_access_token;
    expect((await call(first.base, fresh, "GET", `/conversations/${c}`)).status).toBe(200);
    expect(cli(["seed", "--db", url])).toEqual({
      code: 2,
      out: "",
      err: "parley seed: seed writes a SQLite file: seed one, then move it with parley copy --to postgres://…\n",
    });
    const empty = await server!.createDatabase("never_migrated");
    expect(cli(["token", "--db", empty, "--email", "admin@parley.local"]).err).toBe(
      `parley token: the PostgreSQL database's schema is at version 0 and this binary needs ${POSTGRES_MIGRATIONS.at(-1)!.version}: ` +
        "run parley migrate --db (or start the server) first\n",
    );

    first.proc.kill(9);
    await first.exited;
    const again = await serveProcess(url, env, procs);
    expect(again.token).toBeNull(); // not a first run
    const messages = await call(again.base, token, "GET", `/conversations/${c}/messages`);
    expect(messages.body.payload.map((m: { content: string }) => m.content)).toEqual([
      "My order never came",
      "Sorry! Sending another today.",
    ]);
    again.proc.kill(9);
    await again.exited;
  }, 60_000);

  test("moving over: a SQLite installation copied with parley copy serves the same data and tokens", async () => {
    const w = await installation();
    const file = join(mkdtempSync(join(tmpdir(), "parley-move-")), "parley.db");
    copyDatabaseTo(w.h.deps.db, file);
    openDatabase(file).close();
    const url = await server!.createDatabase("moved");
    const copied = capture();
    expect(await runCli(["copy", "--from", file, "--to", url], copied.io)).toBe(0);

    const served = await serveProcess(url, env, procs);
    expect(served.token).toBeNull();
    const before = await w.h.request("GET", `${w.base}/conversations?status=all`, { token: w.a.adminToken });
    const after = await call(served.base, w.a.adminToken, "GET", "/conversations?status=all");
    expect(after.status).toBe(200);
    const ids = (r: { body: any }) => r.body.data.payload.map((c: { id: number }) => c.id);
    expect(ids(after)).toEqual(ids(before));
    expect(after.body.data.meta).toEqual(before.body.data.meta);
    const labels = await call(served.base, w.a.adminToken, "GET", "/labels");
    expect(labels.body.payload.map((l: { title: string }) => l.title)).toEqual(["vip"]);
    served.proc.kill(9);
    await served.exited;
  }, 60_000);

  test("a statement left unanswered past PARLEY_DB_TIMEOUT_MS: the server exits with 75, to be started again", async () => {
    const url = await server!.createDatabase("stalled");
    const first = await serveProcess(url, env, procs); // migrated, with its first account
    first.proc.kill(9);
    await first.exited;
    // Another session holds the events table, so the newest event the server reads in place through
    // the bridge as it starts (the requests' statements are awaited; their limit is the 503 below)
    // is never answered: the whole process waits on it.
    const holder = new Bun.SQL(url, { max: 1 });
    const session = await holder.reserve();
    await session`BEGIN`;
    await session`LOCK TABLE events IN ACCESS EXCLUSIVE MODE`;
    const stalled = Bun.spawn([process.execPath, "src/main.ts", "serve", "--db", url, "--port", "0"], {
      cwd: join(import.meta.dir, "../.."),
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, PARLEY_LOG_LEVEL: "error", ...env, PARLEY_DB_TIMEOUT_MS: "1000" },
    });
    procs.push(stalled);
    expect(await stalled.exited).toBe(STALLED_EXIT_CODE);
    const said = (await new Response(stalled.stdout).text()) + (await new Response(stalled.stderr).text());
    expect(said).toContain("database stalled: exiting to be started again");
    expect(said).not.toContain("listening on");
    await session`ROLLBACK`;
    session.release();
    await holder.close();

    // Started again, it serves, sockets included.
    const again = await serveProcess(url, env, procs);
    const cable = `${again.base.replace(/^http/, "ws")}/cable?api_access_token=${first.token!}`;
    const socket = await CableClient.connect(cable);
    expect((await socket.subscribe({ account_id: 1 })).reply.type).toBe("confirm_subscription");
    socket.close();
    again.proc.kill(9);
    await again.exited;
  }, 60_000);

  test("an awaited write past PARLEY_DB_TIMEOUT_MS fails alone with 503; the server goes on", async () => {
    const url = await server!.createDatabase("awaited_stall");
    const p = await serveProcess(url, { ...env, PARLEY_DB_TIMEOUT_MS: "1000" }, procs);
    // A contact's create is an awaited body: PostgreSQL ends its statement at the deadline.
    const holder = new Bun.SQL(url, { max: 1 });
    const session = await holder.reserve();
    await session`BEGIN`;
    await session`LOCK TABLE contacts IN ACCESS EXCLUSIVE MODE`;
    const stuck = await call(p.base, p.token!, "POST", "/contacts", { name: "Stuck", email: "stuck@example.com" });
    expect(stuck.status).toBe(503);
    expect(stuck.body.errors).toEqual([
      { field: "database", message: "the database did not answer in time; try again", code: "unavailable" },
    ]);
    await session`ROLLBACK`;
    session.release();
    await holder.close();

    const next = await call(p.base, p.token!, "POST", "/contacts", { name: "Next", email: "next@example.com" });
    expect(next.status).toBe(200);
    const contacts = await call(p.base, p.token!, "GET", "/contacts");
    expect(contacts.body.payload.map((c: { name: string }) => c.name)).toEqual(["Next"]);
    p.proc.kill(9);
    await p.exited;
  }, 60_000);

  // Last: it restarts this file's PostgreSQL under every server still running.
  test("PostgreSQL restarted under a running server: the next page and the next write are answered", async () => {
    const url = await server!.createDatabase("restarted");
    const heard = Promise.withResolvers<string>();
    const hook = startReceiver((_n, req) => {
      if (req.json.event === "message_created") heard.resolve(req.json.content);
      return 200;
    });
    const p = await serveProcess(url, { ...env, PARLEY_ALLOW_PRIVATE_WEBHOOKS: "1" }, procs);
    const api = (method: string, path: string, body?: unknown) => call(p.base, p.token!, method, path, body);
    const inbox = (await api("POST", "/inboxes", { name: "Support", channel: { type: "api" } })).body;
    const contact = (await api("POST", "/contacts", { name: "Rita Restart", email: "rita@example.com" })).body.payload
      .contact;
    const conversation = (await api("POST", "/conversations", { inbox_id: inbox.id, contact_id: contact.id })).body;
    expect((await api("POST", "/webhooks", { url: hook.url, subscriptions: ["message_created"] })).status).toBe(200);

    await server!.restart();
    // Every connection the server held is dead. A page's reads go to the read pool, which takes
    // another connection; a write's transaction begins on a new connection (src/db/postgres/
    // bridge-worker.ts): neither request sees the restart.
    const contacts = await api("GET", "/contacts");
    expect(contacts.status).toBe(200);
    expect(contacts.body.payload.map((c: { name: string }) => c.name)).toEqual(["Rita Restart"]);
    const message = await api("POST", `/conversations/${conversation.id}/messages`, { content: "after the restart" });
    expect(message.status).toBe(200);
    expect(await heard.promise).toBe("after the restart");
    await hook.stop();
    p.proc.kill(9);
    await p.exited;
  }, 60_000);
});

// Crash safety end to end: a real server process records events while the receiver is down or hanging,
// is killed with SIGKILL, and the compiled binary started on the same database delivers everything.
// Events come from test/e2e/webhook-server.ts (startServer + the outbox), because no route on this
// branch emits events yet; the webhook itself is created through the binary's API. Runs on the engine
// under test.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closedPort, startReceiver, type Receiver } from "../helpers/webhooks.ts";
import { buildBinary } from "../helpers/binary.ts";
import { type ServerDatabase, serverDatabase } from "../helpers/server-database.ts";

const root = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "parley-e2e-webhooks-"));
const bin = join(dir, "parley");
const env = { ...process.env, PARLEY_ALLOW_PRIVATE_WEBHOOKS: "1", PARLEY_LOG_LEVEL: "error" };
const procs: Bun.Subprocess[] = [];
const receivers: Receiver[] = [];

/** A child process whose stdout we can wait on, line by line. */
class Child {
  output = "";
  constructor(readonly proc: Bun.Subprocess<"pipe", "pipe", "pipe">) {
    procs.push(proc);
    void (async () => {
      const reader = proc.stdout.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.output += new TextDecoder().decode(value);
      }
    })();
  }
  async waitFor(pattern: RegExp, timeoutMs = 15_000): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = pattern.exec(this.output);
      if (m) return m;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; output so far:\n${this.output}`);
      await Bun.sleep(10);
    }
  }
  send(line: string) {
    this.proc.stdin.write(`${line}\n`);
    this.proc.stdin.flush();
  }
}

function binary(db: ServerDatabase): Child {
  return new Child(
    Bun.spawn([bin, "serve", "--db", db.target, "--port", "0"], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...env, ...db.env },
    }),
  );
}

function eventServer(db: ServerDatabase): Child {
  return new Child(
    Bun.spawn([process.execPath, "test/e2e/webhook-server.ts", db.target], {
      cwd: root,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...env, ...db.env },
    }),
  );
}

const baseOf = async (c: Child) => (await c.waitFor(/listening on (http:\/\/\S+)/))[1]!;

async function until(check: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await Bun.sleep(20);
  }
}

/** A database with one account and a webhook (created through the binary's API) pointing at `url`. */
async function prepare(name: string, url: string): Promise<ServerDatabase> {
  const db = serverDatabase(dir, name);
  const boot = Bun.spawnSync(
    [bin, "bootstrap", "--db", db.target, "--account", "E2E", "--name", "Eve", "--email", `${name}@e2e.test`, "--json"],
    { env: { ...env, ...db.env } },
  );
  const { api_access_token } = JSON.parse(boot.stdout.toString());
  const server = binary(db);
  const base = await baseOf(server);
  const res = await fetch(`${base}/api/v1/accounts/1/webhooks`, {
    method: "POST",
    headers: { api_access_token, "content-type": "application/json" },
    body: JSON.stringify({ url, subscriptions: ["message_created"] }),
  });
  expect(res.status).toBe(200);
  server.proc.kill("SIGTERM");
  expect(await server.proc.exited).toBe(0);
  return db;
}

function rows(db: ServerDatabase): { delivery_id: string; status: string; attempts: number; payload: string }[] {
  const conn = db.open();
  try {
    return conn
      .query("SELECT delivery_id, status, attempts, payload FROM webhook_deliveries ORDER BY id")
      .all() as never;
  } finally {
    conn.close();
  }
}

beforeAll(() => buildBinary(bin), 120_000);

afterAll(async () => {
  for (const p of procs) p.kill("SIGKILL");
  await Promise.all(receivers.map((r) => r.stop()));
});

describe("webhooks survive a hard kill", () => {
  test("receiver down, server killed with SIGKILL, binary restarted, receiver back: every event arrives in order", async () => {
    const port = await closedPort();
    const db = await prepare("down", `http://127.0.0.1:${port}/hook`);
    const first = eventServer(db);
    await baseOf(first);
    first.send("emit 1 1 101 5");
    first.send("emit 1 2 201 5");
    await first.waitFor(/emitted .*\n.*emitted /);
    // each conversation's first delivery is tried, refused, and waits for its retry; the rest wait behind it
    await until(() => rows(db).filter((r) => r.attempts === 1).length === 2, 5000, "first attempts");
    first.proc.kill("SIGKILL");
    await first.proc.exited;
    expect(rows(db).map((r) => r.status)).toEqual(Array(10).fill("pending"));

    const rx = startReceiver(() => 200, port);
    receivers.push(rx);
    const second = binary(db);
    await baseOf(second);
    await until(() => rx.received.length >= 10, 20_000, "all ten events at the receiver");
    const ids = (conv: number) => rx.received.filter((r) => r.json.conversation.id === conv).map((r) => r.json.id);
    expect(ids(1)).toEqual([101, 102, 103, 104, 105]);
    expect(ids(2)).toEqual([201, 202, 203, 204, 205]);
    second.proc.kill("SIGTERM");
    expect(await second.proc.exited).toBe(0);
    const final = rows(db);
    expect(final.map((r) => r.status)).toEqual(Array(10).fill("delivered"));
    // each delivery arrived exactly once (the two conversations interleave freely)
    expect(rx.received.map((r) => r.headers.get("x-chatwoot-delivery")).sort()).toEqual(
      final.map((r) => r.delivery_id).sort(),
    );
  }, 60_000);

  test("attempts in flight at SIGKILL are sent again after restart with the same delivery id", async () => {
    let hang = true;
    const rx = startReceiver(async () => {
      while (hang) await Bun.sleep(20);
      return 200;
    });
    receivers.push(rx);
    const db = await prepare("inflight", rx.url);
    const first = eventServer(db);
    await baseOf(first);
    first.send("emit 1 1 1 1");
    first.send("emit 1 2 2 1");
    first.send("emit 1 3 3 1");
    await until(() => rx.received.length === 3, 5000, "three requests in flight");
    first.proc.kill("SIGKILL");
    await first.proc.exited;
    const before = rx.received.map((r) => r.headers.get("x-chatwoot-delivery")).sort();
    hang = false;

    const second = binary(db);
    await baseOf(second);
    await until(() => rx.received.length === 6, 10_000, "the three re-sent");
    second.proc.kill("SIGTERM");
    expect(await second.proc.exited).toBe(0);
    expect(
      rx.received
        .slice(3)
        .map((r) => r.headers.get("x-chatwoot-delivery"))
        .sort(),
    ).toEqual(before);
    expect(rows(db).map((r) => [r.status, r.attempts])).toEqual([
      ["delivered", 1],
      ["delivered", 1],
      ["delivered", 1],
    ]);
  }, 60_000);

  test("SIGTERM waits for the attempt in flight and records it before exiting", async () => {
    const rx = startReceiver(async () => {
      await Bun.sleep(1000);
      return 200;
    });
    receivers.push(rx);
    const db = await prepare("drain", rx.url);
    const server = eventServer(db);
    await baseOf(server);
    server.send("emit 1 1 1 1");
    await until(() => rx.received.length === 1, 5000, "the request in flight");
    const stopping = Date.now();
    server.proc.kill("SIGTERM");
    expect(await server.proc.exited).toBe(0);
    expect(Date.now() - stopping).toBeGreaterThan(700); // it waited for the receiver's answer
    expect(rows(db).map((r) => [r.status, r.attempts])).toEqual([["delivered", 1]]);
  }, 30_000);
});

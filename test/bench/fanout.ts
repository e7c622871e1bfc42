// What realtime fan-out costs the writer: message create under wrk (32 connections, server on one
// core, wrk on the other) with 0 and then with 200 agent sockets subscribed to the account, each
// receiving every message. The server is the compiled binary when it exists. Never part of `bun test`.
//
//   npm run build && taskset -c 1 bun test/bench/fanout.ts [sockets=200] [seconds=10]
// (taskset keeps this script's 200 sockets off the server's core, beside wrk.)
// FANOUT_DISTINCT=1: each socket subscribes under its own identifier (an extra `tab` field), as 200
// different agents would, so no two sockets can share a frame; by default they share one identifier
// (one user's tabs, or one integration fanning out).
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuMs, freePort, runLoad, waitForHttp } from "./load.ts";

const N = Number(process.argv[2] ?? 200);
const SECONDS = Number(process.argv[3] ?? 10);
const root = join(import.meta.dir, "../..");
const binary = join(root, "build/parley");
// FANOUT_PROFILE_DIR=dir: the server runs from source under `bun --cpu-prof-md` (a markdown profile on stop).
const profileDir = process.env.FANOUT_PROFILE_DIR;
const serverCmd = profileDir
  ? [process.execPath, "--cpu-prof-md", `--cpu-prof-dir=${profileDir}`, join(root, "src/main.ts")]
  : existsSync(binary)
    ? [binary]
    : [process.execPath, join(root, "src/main.ts")];
const db = join(mkdtempSync(join(tmpdir(), "parley-fanout-")), "bench.db");

function run(args: string[]): string {
  const r = Bun.spawnSync([...serverCmd, ...args], { cwd: root, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

function subscriber(url: string, identifier: string, count: () => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.onopen = () => ws.send(JSON.stringify({ command: "subscribe", identifier }));
    ws.onerror = () => reject(new Error("socket error"));
    // Cheap on purpose (no JSON parsing of every frame): the clients share a core with wrk.
    ws.onmessage = (m) => {
      const text = String(m.data);
      if (text.includes('"confirm_subscription"')) resolve(ws);
      else if (text.includes('"message.created"')) count();
    };
  });
}

async function main() {
  const boot = JSON.parse(
    run(["bootstrap", "--db", db, "--account", "Bench", "--name", "Admin", "--email", "admin@bench.local", "--json"]),
  );
  const port = await freePort();
  const server = Bun.spawn(["taskset", "-c", "0", ...serverCmd, "serve", "--db", db, "--port", String(port)], {
    stdout: "ignore",
    stderr: "inherit",
    env: { ...process.env, PARLEY_LOG_LEVEL: "warn" },
  });
  try {
    const origin = `http://127.0.0.1:${port}`;
    await waitForHttp(`${origin}/health`);
    const base = `/api/v1/accounts/${boot.account_id}`;
    const headers = { api_access_token: boot.api_access_token, "content-type": "application/json" };
    const post = async (path: string, body: unknown) =>
      (await fetch(`${origin}${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) })).json();
    const inbox = await post("/inboxes", { name: "Bench", channel: { type: "api" } });
    // Enough conversations that no one reaches the flood guard (200 messages a minute) in a run.
    const conversations: number[] = [];
    for (let i = 0; i < 2000; i += 50) {
      const batch = Array.from({ length: 50 }, async (_, j) => {
        const contact = await post("/contacts", { name: `Bench ${i + j}`, email: `c${i + j}@bench.local` });
        return (await post("/conversations", { inbox_id: inbox.id, contact_id: contact.payload.contact.id }))
          .id as number;
      });
      conversations.push(...(await Promise.all(batch)));
    }
    const requests = conversations.map((id) => ({
      method: "POST",
      path: `${base}/conversations/${id}/messages`,
      headers,
      body: JSON.stringify({ content: "hello from the bench" }),
    }));
    const measure = async () => {
      const cpu0 = await cpuMs(server.pid);
      const r = await runLoad({ origin, requests, connections: 32, durationSeconds: SECONDS, cpu: "1" });
      const cpu = (await cpuMs(server.pid)) - cpu0;
      return { ...r, cpuPerRequestUs: Math.round((cpu * 1000) / Math.max(1, r.total)) };
    };
    await runLoad({ origin, requests, connections: 32, durationSeconds: 3, cpu: "1" }); // warm-up
    const alone = await measure();

    let delivered = 0;
    const url = `ws://127.0.0.1:${port}/cable?api_access_token=${boot.api_access_token}`;
    const distinct = process.env.FANOUT_DISTINCT === "1";
    const identifier = (n: number) =>
      JSON.stringify({ channel: "RoomChannel", account_id: boot.account_id, ...(distinct ? { tab: n } : {}) });
    const sockets: WebSocket[] = [];
    for (let i = 0; i < N; i += 50)
      sockets.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, N - i) }, (_, j) => subscriber(url, identifier(i + j), () => delivered++)),
        )),
      );
    const withSockets = await measure();
    for (const ws of sockets) ws.close();

    const row = (name: string, r: typeof alone) =>
      `| ${name} | ${r.requestsPerSecond.toLocaleString("en")} | ${r.p50} ms | ${r.p99} ms | ${r.cpuPerRequestUs} µs | ${r.errors + r.non2xx} |`;
    console.log(
      `\nmessage create, 32 connections, ${SECONDS} s each, server ${serverCmd[0] === binary ? "binary" : "from source"} on core 0, wrk on core 1, ${distinct ? "one identifier per socket" : "one identifier for all sockets"}\n`,
    );
    console.log("| sockets | req/s | p50 | p99 | server CPU / request | errors |\n|---|---|---|---|---|---|");
    console.log(row("0", alone));
    console.log(row(String(N), withSockets));
    const cost = 1 - withSockets.requestsPerSecond / alone.requestsPerSecond;
    console.log(
      `\n${N} sockets cost the writer ${(cost * 100).toFixed(1)} % of its throughput; ${delivered.toLocaleString("en")} message.created frames delivered.`,
    );
  } finally {
    server.kill("SIGTERM");
    await server.exited;
  }
}

await main();

// Memory of idle realtime sockets: starts the real server (the compiled binary when it exists) on a
// fresh database, reads its RSS, opens N /cable sockets each subscribed to the account (as agents
// do: welcome, confirm, then pings every 3 s), reads the RSS again once they have idled, then times
// the fan-out of one message to all of them. Never part of `bun test`.
//
//   bun test/bench/sockets.ts [sockets=1000]
//
// Last runs (Bun 1.4.5 from source, 2 vCPUs shared with other work; RSS of the server process):
//   1,000 sockets: +8.3 MB and +11.1 MB in two runs (8-11 KB per socket, Elysia's per-socket context
//   included); one message.created reached all 1,000 in 39-77 ms from the POST.
//   5,000 sockets: +31.2 MB (6.4 KB per socket); fan-out to all 5,000 in 155 ms.
//   Compiled binary, 1,000 sockets: 70.2 → 80.9 MB (+10.7 MB, 11 KB per socket), fan-out 31 ms.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, rssMb, waitForHttp } from "./load.ts";

const N = Number(process.argv[2] ?? 1000);
const root = join(import.meta.dir, "../..");
const binary = join(root, "build/parley");
const serverCmd = existsSync(binary) ? [binary] : [process.execPath, join(root, "src/main.ts")];
const db = join(mkdtempSync(join(tmpdir(), "parley-sockets-")), "bench.db");

function run(args: string[]): string {
  const r = Bun.spawnSync([...serverCmd, ...args], { cwd: root, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** Opens a socket and subscribes; resolves once the subscription is confirmed. */
function subscriber(
  url: string,
  identifier: string,
  onMessage: (frame: { message?: { event?: string } }) => void,
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.onopen = () => ws.send(JSON.stringify({ command: "subscribe", identifier }));
    ws.onerror = () => reject(new Error("socket error"));
    ws.onmessage = (m) => {
      const frame = JSON.parse(String(m.data));
      if (frame.type === "confirm_subscription") resolve(ws);
      else if (frame.type === "reject_subscription") reject(new Error("rejected"));
      else onMessage(frame);
    };
  });
}

async function main() {
  const boot = JSON.parse(
    run(["bootstrap", "--db", db, "--account", "Bench", "--name", "Admin", "--email", "admin@bench.local", "--json"]),
  );
  const port = await freePort();
  const server = Bun.spawn([...serverCmd, "serve", "--db", db, "--port", String(port)], {
    stdout: "ignore",
    stderr: "inherit",
    env: { ...process.env, PARLEY_LOG_LEVEL: "warn" },
  });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/health`);
    const base = `http://127.0.0.1:${port}/api/v1/accounts/${boot.account_id}`;
    const headers = { api_access_token: boot.api_access_token, "content-type": "application/json" };
    const inbox = await (
      await fetch(`${base}/inboxes`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Bench", channel: { type: "api" } }),
      })
    ).json();
    const contact = await (
      await fetch(`${base}/contacts`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Bench Contact", email: "c@bench.local" }),
      })
    ).json();
    const conversation = await (
      await fetch(`${base}/conversations`, {
        method: "POST",
        headers,
        body: JSON.stringify({ inbox_id: inbox.id, contact_id: contact.payload.contact.id }),
      })
    ).json();
    // Warm the server (first requests compile routes), then let it settle before the baseline.
    for (let i = 0; i < 20; i++) await fetch(`${base}/agents`, { headers });
    await Bun.sleep(2000);
    const before = await rssMb(server.pid);

    const url = `ws://127.0.0.1:${port}/cable?api_access_token=${boot.api_access_token}`;
    const identifier = JSON.stringify({ channel: "RoomChannel", account_id: boot.account_id });
    let received = 0;
    let allReceived: () => void = () => {};
    const onMessage = (f: { message?: { event?: string } }) => {
      if (f.message?.event === "message.created" && ++received === N) allReceived();
    };
    const t0 = performance.now();
    const sockets: WebSocket[] = [];
    for (let i = 0; i < N; i += 100) {
      sockets.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(100, N - i) }, () => subscriber(url, identifier, onMessage)),
        )),
      );
    }
    const openMs = performance.now() - t0;
    await Bun.sleep(10_000); // idle: only heartbeats
    const after = await rssMb(server.pid);

    const done = new Promise<void>((resolve) => (allReceived = resolve));
    const t1 = performance.now();
    await fetch(`${base}/conversations/${conversation.id}/messages`, {
      method: "POST",
      headers,
      body: JSON.stringify({ content: "hello, everyone" }),
    });
    await done;
    const fanOutMs = performance.now() - t1;

    for (const ws of sockets) ws.close();
    await Bun.sleep(2000);
    const closed = await rssMb(server.pid);
    const perSocketKb = ((after - before) * 1024) / N;
    console.log(`server: ${serverCmd[0]}`);
    console.log(`${N} sockets opened and subscribed in ${openMs.toFixed(0)} ms`);
    console.log(
      `RSS before ${before} MB, with ${N} idle sockets ${after} MB (+${(after - before).toFixed(1)} MB, ${perSocketKb.toFixed(1)} KB per socket), after closing them ${closed} MB`,
    );
    console.log(`one message.created to all ${N} sockets: ${fanOutMs.toFixed(1)} ms from POST to the last socket`);
  } finally {
    server.kill();
    await server.exited;
  }
}

await main();

// The runtime's own floor under realtime fan-out: a bare `Bun.serve` (no Parley) on core 0 sends
// ~1.2 KB frames to N WebSocket clients held by this script (pin it to the other core), 20 frames a
// tick, each socket's batch corked into one write as Parley's hub does, three ways: a distinct
// string per socket, one string shared by all sockets, and Bun's native `publish`. It prints the server's CPU per socket-frame and
// per message for N sockets — the least any server on this runtime and machine pays to fan a message
// out, whatever its own code does. Compare with fanout.ts's CPU per message with 0 sockets.
// Never part of `bun test`.
//
//   taskset -c 1 bun test/bench/fanout-floor.ts [sockets=200] [bursts=20] [frames per burst=100]
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuMs, freePort, waitForHttp } from "./load.ts";

const N = Number(process.argv[2] ?? 200);
const BURSTS = Number(process.argv[3] ?? 20);
const FRAMES = Number(process.argv[4] ?? 100);
const MODES = ["distinct", "shared", "publish"] as const;

// The server, as its own file: it must run in its own process, pinned to its own core.
const SERVER = `
const sockets = new Set();
const body = "x".repeat(1100);
const frame = (i, n) => JSON.stringify({ identifier: '{"channel":"RoomChannel","n":' + n + '}', message: { event: "message.created", data: { id: i, content: body } } });
const server = Bun.serve({
  port: Number(process.env.PORT),
  hostname: "127.0.0.1",
  fetch(req, server) {
    if (server.upgrade(req)) return;
    const u = new URL(req.url);
    burst(u.searchParams.get("mode"), Number(u.searchParams.get("frames")));
    return new Response("ok");
  },
  websocket: { open(ws) { sockets.add(ws); ws.subscribe("all"); }, close(ws) { sockets.delete(ws); }, message() {} },
});
function burst(mode, frames) {
  let i = 0;
  const tick = () => {
    const batch = [];
    for (; batch.length < 20 && i < frames; i++) batch.push(i);
    if (mode === "publish") for (const id of batch) server.publish("all", frame(id, 0));
    else if (mode === "shared") {
      const fs = batch.map((id) => frame(id, 0));
      for (const ws of sockets) ws.cork(() => { for (const f of fs) ws.send(f); });
    } else {
      let n = 0;
      for (const ws of sockets) { const k = n++; ws.cork(() => { for (const id of batch) ws.send(frame(id, k)); }); }
    }
    if (i < frames) setImmediate(tick);
  };
  tick();
}
`;

const dir = mkdtempSync(join(tmpdir(), "parley-fanout-floor-"));
writeFileSync(join(dir, "server.js"), SERVER);
const port = await freePort();
const server = Bun.spawn(["taskset", "-c", "0", process.execPath, join(dir, "server.js")], {
  env: { ...process.env, PORT: String(port) },
  stdout: "inherit",
  stderr: "inherit",
});
try {
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(`${origin}/?mode=shared&frames=0`);
  let received = 0;
  let waiting: { until: number; done: () => void } | null = null;
  const sockets = await Promise.all(
    Array.from(
      { length: N },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
          ws.onopen = () => resolve(ws);
          ws.onerror = () => reject(new Error("socket error"));
          ws.onmessage = () => {
            received++;
            if (waiting && received >= waiting.until) waiting.done();
          };
        }),
    ),
  );
  const burst = (mode: string) =>
    new Promise<void>((done) => {
      waiting = { until: received + N * FRAMES, done };
      void fetch(`${origin}/?mode=${mode}&frames=${FRAMES}`);
    });
  console.log(`\n${N} sockets, ${BURSTS} bursts of ${FRAMES} frames (~1.2 KB), bare Bun.serve on core 0\n`);
  console.log("| frames | server CPU per socket-frame | per message to all sockets |\n|---|---|---|");
  for (const mode of MODES) {
    await burst(mode); // warm-up
    const cpu0 = await cpuMs(server.pid);
    for (let b = 0; b < BURSTS; b++) await burst(mode);
    const us = ((await cpuMs(server.pid)) - cpu0) * 1000;
    const perSocketFrame = us / (BURSTS * FRAMES * N);
    console.log(`| ${mode} | ${perSocketFrame.toFixed(2)} µs | ${Math.round(perSocketFrame * N)} µs |`);
  }
  for (const ws of sockets) ws.close();
} finally {
  server.kill();
  await server.exited;
}

// What a request costs on PostgreSQL in statements: each is a round trip through the bridge
// (src/db/postgres/sync-bridge.ts), during which the server does nothing else, so their number is
// what limits a server on PostgreSQL (README "Scaling out"). The server runs in this process on a
// copy of the engines benchmark's seeded file, in a throwaway PostgreSQL; requests go one at a time
// through the app, and every bridge call is counted. Never part of `bun test`.
//
//   npm run bench:engines                      (once: seeds test/bench/results/engines-v1-20000.db)
//   taskset -c 0 bun test/bench/round-trips.ts [requests per scenario, default 200]
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { type SyncBridge, sharedBridge } from "../../src/db/postgres/sync-bridge.ts";
import { startServer } from "../../src/server.ts";
import { startPostgres } from "../helpers/postgres.ts";
import type { SeedInfo } from "./scenarios.ts";

const root = join(import.meta.dir, "../..");
const seed = join(root, "test/bench/results/engines-v1-20000.db");
const N = Number(process.argv[2] ?? 200);
if (!existsSync(seed)) throw new Error(`no ${seed}: run npm run bench:engines once first (it seeds it)`);
const info = JSON.parse(await Bun.file(`${seed}.json`).text()) as SeedInfo;

const pg = await startPostgres();
if ("skip" in pg) throw new Error(pg.skip);
const SECRET = "round trips, a throwaway key";
/** The contact-search bench scenario's terms (scenarios.ts). */
const SEARCH_TERMS = ["kowalski", "smith", "rossi", "nakamura", "CRM-19", "%2B1200000", "gmail"];
try {
  const url = await pg.createDatabase("round_trips");
  const parley = (...args: string[]) => {
    const r = Bun.spawnSync([process.execPath, join(root, "src/main.ts"), ...args], {
      env: { ...process.env, PARLEY_SECRET_KEY: SECRET },
      stderr: "pipe",
    });
    if (r.exitCode !== 0) throw new Error(`parley ${args[0]} failed: ${r.stderr.toString()}`);
  };
  parley("migrate", "--db", seed); // a seed from before the latest migration: copy takes only a current file
  parley("copy", "--from", seed, "--to", url);
  const env = { ...process.env, PARLEY_LOG_LEVEL: "warn", PARLEY_SECRET_KEY: SECRET };
  const server = await startServer(loadConfig({ db: url, port: "0" }, env), () => {});
  const app = createApp(server.deps);
  const counted = countCalls(sharedBridge());
  const account = `http://localhost/api/v1/accounts/${info.account_id}`;
  const headers = { api_access_token: info.api_access_token, "content-type": "application/json" };
  const scenarios: [string, (i: number) => Request][] = [
    [
      "message list",
      () => new Request(`${account}/conversations/${info.thread_conversation_id}/messages`, { headers }),
    ],
    ["conversation list", (i) => new Request(`${account}/conversations?status=open&page=${1 + (i % 5)}`, { headers })],
    [
      "contact search",
      (i) => new Request(`${account}/contacts/search?q=${SEARCH_TERMS[i % SEARCH_TERMS.length]}`, { headers }),
    ],
    [
      "message create",
      (i) =>
        new Request(`${account}/conversations/${2 + (i % 500)}/messages`, {
          method: "POST",
          headers,
          body: JSON.stringify({ content: `round trip ${i}`, message_type: "outgoing" }),
        }),
    ],
  ];
  console.log("| scenario | statements a request | ms a request (one at a time) | longest waits (a request) |");
  console.log("|---|---|---|---|");
  for (const [name, request] of scenarios) {
    for (let i = 0; i < 20; i++) await (await app.handle(request(i))).arrayBuffer(); // warm-up
    await server.deps.bus.drain();
    counted.reset();
    const started = performance.now();
    for (let i = 0; i < N; i++) {
      const r = await app.handle(request(i));
      if (r.status !== 200) throw new Error(`${name}: ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
    }
    await server.deps.bus.drain(); // the listeners' statements belong to the request that set them off
    const ms = (performance.now() - started) / N;
    const top = counted
      .top(Number(process.env.TOP ?? 3))
      .map((c) => `\`${c.sql}\` ${(c.n / N).toFixed(1)}× ${((c.ms / N) * 1000).toFixed(0)} µs`)
      .join("; ");
    console.log(`| ${name} | ${(counted.total() / N).toFixed(1)} | ${ms.toFixed(2)} | ${top} |`);
  }
  // Wakes the last requests scheduled (the bus's, the hub's) run before the database goes away.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await server.stop();
} finally {
  await pg.stop();
}
process.exit(0);

/** Counts every statement the bridge sends, by its first words, and the time waited for each. */
function countCalls(bridge: SyncBridge) {
  const counts = new Map<string, { n: number; ms: number }>();
  const call = bridge.call.bind(bridge);
  bridge.call = (req) => {
    const key = ("text" in req ? req.text : req.kind).replace(/\s+/g, " ").trim().slice(0, 48);
    const started = performance.now();
    try {
      return call(req);
    } finally {
      const c = counts.get(key) ?? { n: 0, ms: 0 };
      c.n++;
      c.ms += performance.now() - started;
      counts.set(key, c);
    }
  };
  return {
    reset: () => counts.clear(),
    total: () => [...counts.values()].reduce((a, b) => a + b.n, 0),
    /** The statements that waited longest in all. */
    top: (n: number) =>
      [...counts]
        .sort((a, b) => b[1].ms - a[1].ms)
        .slice(0, n)
        .map(([sql, c]) => ({ sql, ...c })),
  };
}

// CPU profile of the server under one bench scenario: the server runs from source under
// `bun --cpu-prof-md` pinned to CPU 0, wrk drives the scenario from CPU 1, and the markdown profile
// is written when the server stops. Uses the database `npm run bench` seeded.
//   bun test/bench/profile.ts "message-create (account API)" [seconds]
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { cacheFiles, cpuMs, freePort, runLoad, waitForHttp } from "./load.ts";
import { SCENARIOS, type SeedInfo, seededDatabase } from "./scenarios.ts";

const [name, seconds = "10"] = process.argv.slice(2);
const scenario = SCENARIOS.find((s) => s.name === name);
if (!scenario)
  throw new Error(
    `usage: bun test/bench/profile.ts SCENARIO [seconds]; scenarios: ${SCENARIOS.map((s) => s.name).join(", ")}`,
  );
const root = join(import.meta.dir, "../..");
const results = join(root, "test/bench/results");
const db = process.env.BENCH_DB ?? seededDatabase();
const info = JSON.parse(await Bun.file(`${db}.json`).text()) as SeedInfo;
const dir = join(results, `profile-${Date.now()}`);
mkdirSync(dir, { recursive: true });

const port = await freePort();
const server = Bun.spawn(
  [
    "taskset",
    "-c",
    "0",
    process.execPath,
    "--cpu-prof-md",
    `--cpu-prof-dir=${dir}`,
    join(root, "src/main.ts"),
    "serve",
    "--db",
    db,
    "--port",
    String(port),
  ],
  {
    stdout: "ignore",
    stderr: "inherit",
    env: {
      ...process.env,
      PARLEY_LOG_LEVEL: "warn",
      PARLEY_PUBLIC_REQUESTS_PER_MINUTE: "0",
      PARLEY_PUBLIC_MESSAGES_PER_MINUTE: "0",
      PARLEY_PUBLIC_CONVERSATIONS_PER_HOUR: "0",
      PARLEY_PUBLIC_CONTACTS_PER_HOUR: "0",
    },
  },
);
await waitForHttp(`http://127.0.0.1:${port}/health`);
await cacheFiles(db, `${db}-wal`); // a profile of the code, not of the disk (see cacheFiles)
const cpu0 = await cpuMs(server.pid);
const r = await runLoad({
  origin: `http://127.0.0.1:${port}`,
  requests: scenario.requests(info),
  connections: 32,
  durationSeconds: Number(seconds),
  cpu: "1",
});
const cpuUs = Math.round((((await cpuMs(server.pid)) - cpu0) * 1000) / Math.max(1, r.total));
server.kill("SIGTERM");
await server.exited;
console.log(
  `${name}: ${r.requestsPerSecond} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, server CPU ${cpuUs} µs/request (profiler on), non-2xx ${r.non2xx}`,
);
console.log(`profile: ${join(dir, readdirSync(dir).find((f) => f.endsWith(".md")) ?? "(none written)")}`);

// npm run bench: seeds a realistic account, starts the real server (the compiled binary when it
// exists), and drives each scenario over HTTP at fixed concurrency for a fixed time, next to a
// bare Bun.serve ceiling measured in the same run, with wrk as the load generator (load.ts).
// Never part of `bun test`.
//
//   BENCH_DURATION=10 BENCH_CONNECTIONS=32 BENCH_CONTACTS=1000000 npm run bench
//   BENCH_ONLY=health,message-list npm run bench      (a subset)
//   BENCH_SERVER=/tmp/parley-main npm run bench       (another build on the same database)
//   BENCH_WARMUP=0 npm run bench                      (measure from the first request, cold)
import { existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  cacheFiles,
  cpuMs,
  freePort,
  PUBLIC_LIMITS_OFF,
  rssMb,
  runLoad,
  settle,
  settleIdle,
  waitForHttp,
  type LoadResult,
} from "./load.ts";
import { chosenScenarios, SCENARIOS, type SeedInfo, seededDatabase, type WidgetInfo } from "./scenarios.ts";
import { attachmentSetup } from "./attachment-setup.ts";
import { widgetSetup } from "./widget-setup.ts";

const root = join(import.meta.dir, "../..");
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const only = chosenScenarios(process.env.BENCH_ONLY);
// Each scenario first runs unmeasured for this long: the first requests of a fresh server pay for JIT
// tiers, Elysia compiling the route, cold SQLite pages and a filter's first count, which is start-up
// cost, not the steady state the table reports (test/bench/README.md shows both).
const warmup = Number(process.env.BENCH_WARMUP ?? 2);
const scale = {
  contacts: Number(process.env.BENCH_CONTACTS ?? 1_000_000),
  conversations: Number(process.env.BENCH_CONVERSATIONS ?? 1_000_000),
  messagesPerConversation: Number(process.env.BENCH_MESSAGES_PER_CONVERSATION ?? 2),
};
// Two cores: the server gets CPU 0, the load generator CPU 1, so neither starves the other.
const SERVER_CPU = "0";
const LOAD_CPU = "1";

// BENCH_SERVER=/path/to/another/parley compares builds (e.g. main's) on the same database and machine.
const binary = process.env.BENCH_SERVER ?? join(root, "build/parley");
const serverCmd = existsSync(binary) ? [binary] : [process.execPath, join(root, "src/main.ts")];
const workDir = join(root, "test/bench/results");
mkdirSync(workDir, { recursive: true });
const db = seededDatabase(scale.contacts, scale.conversations);

function run(cmd: string[]): string {
  const r = Bun.spawnSync(cmd, { cwd: root, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

async function seed(): Promise<SeedInfo> {
  const info = join(`${db}.json`);
  if (existsSync(db) && existsSync(info)) return JSON.parse(await Bun.file(info).text());
  console.log(`seeding ${db} (${scale.contacts} contacts, ${scale.conversations} conversations) …`);
  const t0 = performance.now();
  const out = run([
    ...serverCmd,
    "seed",
    "--db",
    db,
    "--contacts",
    String(scale.contacts),
    "--conversations",
    String(scale.conversations),
    "--messages-per-conversation",
    String(scale.messagesPerConversation),
    "--thread-messages",
    "10000",
    "--json",
  ]);
  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const seeded = { ...JSON.parse(out.trim()), conversations: scale.conversations };
  await Bun.write(info, JSON.stringify(seeded));
  return seeded;
}

interface Row extends LoadResult {
  name: string;
  ratio: number;
  rss: number;
  /** Server CPU time per request (µs): comparable across runs on a shared machine, unlike req/s. */
  cpuUs: number;
  /** The same with the work the requests left behind (listeners catching up), until the server is idle. */
  cpuAllUs: number;
}

async function main() {
  const machine = `${run(["nproc"]).trim()} cores, ${run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"]).trim()}`;
  console.log(
    `Parley bench — ${new Date().toISOString()} — ${machine} — ${connections} connections × ${duration} s — server: ${serverCmd[0]}`,
  );

  const ceilingPort = await freePort();
  const ceiling = Bun.spawn(
    ["taskset", "-c", SERVER_CPU, process.execPath, join(import.meta.dir, "ceiling.ts"), String(ceilingPort)],
    { stdout: "ignore" },
  );
  await waitForHttp(`http://127.0.0.1:${ceilingPort}/`);
  const ceil = await runLoad({
    origin: `http://127.0.0.1:${ceilingPort}`,
    requests: [{ path: "/" }],
    connections,
    durationSeconds: duration,
    cpu: LOAD_CPU,
  });
  ceiling.kill();
  console.log(`ceiling (bare Bun.serve JSON): ${ceil.requestsPerSecond} req/s, p50 ${ceil.p50} ms, p99 ${ceil.p99} ms`);

  const wanted = SCENARIOS.filter((s) => !only || only(s.name));
  const info = wanted.some((s) => s.needsSeed) ? await seed() : null;

  const port = await freePort();
  const t0 = performance.now();
  const server = Bun.spawn(
    [
      "taskset",
      "-c",
      SERVER_CPU,
      ...serverCmd,
      "serve",
      "--db",
      info ? db : join(workDir, "empty.db"),
      "--port",
      String(port),
    ],
    {
      stdout: "ignore",
      stderr: "inherit",
      env: { ...process.env, PARLEY_LOG_LEVEL: "warn", ...PUBLIC_LIMITS_OFF },
    },
  );
  await waitForHttp(`http://127.0.0.1:${port}/health`);
  const startMs = performance.now() - t0;
  await Bun.sleep(1000);
  const idleRss = await rssMb(server.pid);
  console.log(
    `server up in ${startMs.toFixed(0)} ms; idle RSS ${idleRss} MB${info ? `; database ${(statSync(db).size / 1e6).toFixed(0)} MB` : ""}`,
  );

  const widget: WidgetInfo | undefined =
    info && wanted.some((s) => s.needsWidget) ? await widgetSetup(`http://127.0.0.1:${port}`, info) : undefined;
  const attachment =
    info && wanted.some((s) => s.needsAttachment)
      ? await attachmentSetup(`http://127.0.0.1:${port}`, info, info.public_conversation_id)
      : undefined;
  const scenarioInfo = info ? { ...info, widget, attachment } : null;
  const rows: Row[] = [];
  for (const s of wanted) {
    if (info) await cacheFiles(db, `${db}-wal`);
    await settle(`http://127.0.0.1:${port}`);
    if (warmup > 0)
      await runLoad({
        origin: `http://127.0.0.1:${port}`,
        requests: s.requests(scenarioInfo!),
        connections,
        durationSeconds: warmup,
        cpu: LOAD_CPU,
      });
    await settleIdle(server.pid); // the warm-up's own deferred work is not the measurement's
    const cpu0 = await cpuMs(server.pid);
    const r = await runLoad({
      origin: `http://127.0.0.1:${port}`,
      requests: s.requests(scenarioInfo!),
      connections,
      durationSeconds: duration,
      cpu: LOAD_CPU,
    });
    const perRequest = (cpu: number) => Math.round(((cpu - cpu0) * 1000) / Math.max(1, r.total));
    const cpuUs = perRequest(await cpuMs(server.pid));
    await settleIdle(server.pid);
    const cpuAllUs = perRequest(await cpuMs(server.pid));
    const row = {
      name: s.name,
      ...r,
      ratio: r.requestsPerSecond / ceil.requestsPerSecond,
      rss: await rssMb(server.pid),
      cpuUs,
      cpuAllUs,
    };
    rows.push(row);
    console.log(
      `${s.name}: ${r.requestsPerSecond} req/s (${(row.ratio * 100).toFixed(1)} % of ceiling), p50 ${r.p50} ms, p99 ${r.p99} ms, server CPU ${cpuUs} µs/request (${cpuAllUs} with deferred work), errors ${r.errors}, non-2xx ${r.non2xx}, RSS ${row.rss} MB`,
    );
  }
  server.kill("SIGTERM");
  await server.exited;

  const table = [
    "| scenario | req/s | % of Bun.serve | p50 ms | p99 ms | server CPU µs/req | incl. deferred work | errors | non-2xx | RSS after MB |",
    "|---|---|---|---|---|---|---|---|---|---|",
    `| bare Bun.serve (ceiling) | ${ceil.requestsPerSecond} | 100 | ${ceil.p50} | ${ceil.p99} | | | ${ceil.errors} | ${ceil.non2xx} | |`,
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.requestsPerSecond} | ${(r.ratio * 100).toFixed(1)} | ${r.p50} | ${r.p99} | ${r.cpuUs} | ${r.cpuAllUs} | ${r.errors} | ${r.non2xx} | ${r.rss} |`,
    ),
  ].join("\n");
  console.log(`\n${table}\n\nstart→/health ${startMs.toFixed(0)} ms, idle RSS ${idleRss} MB`);
  await Bun.write(
    join(workDir, process.env.BENCH_OUT ?? "latest.md"),
    `${new Date().toISOString()} ${serverCmd[0]}\n\n${table}\n`,
  );
}

await main();

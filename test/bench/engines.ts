// npm run bench (after run.ts's table), or alone as npm run bench:engines — the same scenarios on SQLite, on PostgreSQL with one server process, and on
// PostgreSQL with three (test/bench/README.md "Two engines"). A seeded SQLite file is copied into a
// throwaway PostgreSQL with `parley copy`; the database server and Parley share CPU 0 (as SQLite,
// in the process, does) and wrk has CPU 1. Three processes are loaded by three wrk instances side by
// side, a third of the connections each, and their rates summed. Never part of `bun test`.
//
//   BENCH_DURATION=10 BENCH_CONTACTS=20000 npm run bench:engines
//   BENCH_SETUPS=2 BENCH_PG_CPU=1 bun test/bench/engines.ts   # PostgreSQL only, on the other core
//   BENCH_BESIDE=contact-search …                               # each scenario beside 8 connections of searches
//   BENCH_WEBHOOK=1 …                                           # with a webhook on message_created (webhook-receiver.ts)
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { startPostgres } from "../helpers/postgres.ts";
import { freePort, type LoadResult, PUBLIC_LIMITS_OFF, runLoad, settle, waitForHttp } from "./load.ts";
import { chosenScenarios, SCENARIOS, type SeedInfo } from "./scenarios.ts";
import { type BenchWebhook, benchWebhook } from "./webhook-receiver.ts";
import { widgetSetup } from "./widget-setup.ts";

const root = join(import.meta.dir, "../..");
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 30);
const contacts = Number(process.env.BENCH_CONTACTS ?? 20_000);
// BENCH_SERVER=/path/to/another/parley compares builds on the same databases, as run.ts does.
const binary = process.env.BENCH_SERVER ?? join(root, "build/parley");
const ENGINE_SCENARIOS = [
  "health",
  "message-create (account API)",
  "message-list (before, 10,000-message thread)",
  "contact-search",
  "conversation-list (filters)",
];
const wanted = chosenScenarios(process.env.BENCH_ONLY) ?? ((name: string) => ENGINE_SCENARIOS.includes(name));
/** Which of the three setups to run (BENCH_SETUPS=2,3: PostgreSQL only). */
const SETUPS = (process.env.BENCH_SETUPS ?? "1,2,3").split(",").map(Number);
const SECRET = "bench key, the same for every process";
const PG_CPU = process.env.BENCH_PG_CPU ?? "0";
const WEBHOOK = process.env.BENCH_WEBHOOK === "1";

function run(cmd: string[]): string {
  const r = Bun.spawnSync(cmd, { cwd: root, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

async function seeded(): Promise<{ db: string; info: SeedInfo }> {
  const db = join(root, `test/bench/results/engines-v1-${contacts}.db`);
  mkdirSync(join(root, "test/bench/results"), { recursive: true }); // a fresh clone has none
  if (existsSync(db) && existsSync(`${db}.json`)) return { db, info: JSON.parse(await Bun.file(`${db}.json`).text()) };
  const out = run(
    [binary, "seed", "--db", db, "--contacts", String(contacts), "--conversations", String(contacts)].concat([
      "--messages-per-conversation",
      "2",
      "--thread-messages",
      "10000",
      "--json",
    ]),
  );
  const info = { ...JSON.parse(out.trim()), conversations: contacts };
  await Bun.write(`${db}.json`, JSON.stringify(info));
  return { db, info };
}

/** Starts `count` servers on `db`; resolves with their origins and a stop function. */
async function servers(db: string, count: number) {
  const procs: Bun.Subprocess[] = [];
  const origins: string[] = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    procs.push(
      Bun.spawn(["taskset", "-c", "0", binary, "serve", "--db", db, "--port", String(port)], {
        stdout: "ignore",
        stderr: "inherit",
        env: {
          ...process.env,
          PARLEY_LOG_LEVEL: "warn",
          PARLEY_SECRET_KEY: SECRET,
          PARLEY_STORAGE: join(root, "test/bench/results/engines.files"),
          ...PUBLIC_LIMITS_OFF,
          ...(WEBHOOK ? { PARLEY_ALLOW_PRIVATE_WEBHOOKS: "1" } : {}),
        },
      }),
    );
    origins.push(`http://127.0.0.1:${port}`);
    await waitForHttp(`${origins[i]}/health`);
  }
  return {
    origins,
    async stop() {
      for (const p of procs) p.kill("SIGTERM");
      await Promise.all(procs.map((p) => p.exited));
    },
  };
}

type Requests = ReturnType<(typeof SCENARIOS)[number]["requests"]>;

/**
 * BENCH_BESIDE=NAME: each scenario is measured while NAME's requests load the first server from 8
 * more connections — what slow reads of one kind do to every other request.
 */
const BESIDE = process.env.BENCH_BESIDE ? SCENARIOS.find((x) => x.name === process.env.BENCH_BESIDE) : undefined;
if (process.env.BENCH_BESIDE && !BESIDE) throw new Error(`BENCH_BESIDE: no scenario ${process.env.BENCH_BESIDE}`);

/** One scenario against every origin at once; rates summed, the worst p99. */
async function measure(origins: string[], requests: Requests, beside: Requests | null, hook: BenchWebhook | null) {
  const per = Math.max(1, Math.round(connections / origins.length));
  const load = (seconds: number) =>
    Promise.all(
      origins.map((origin) => runLoad({ origin, requests, connections: per, durationSeconds: seconds, cpu: "1" })),
    );
  await load(2); // warm-up
  for (const o of origins) await settle(o);
  const besideLoad = beside
    ? runLoad({ origin: origins[0]!, requests: beside, connections: 8, durationSeconds: duration + 1, cpu: "1" })
    : null;
  const before = await hook?.received();
  const results: LoadResult[] = await load(duration);
  const delivered = hook ? ((await hook.received()) - before!) / duration : null;
  await besideLoad;
  return {
    delivered,
    rps: results.reduce((n, r) => n + r.requestsPerSecond, 0),
    p99: Math.max(...results.map((r) => r.p99)),
    bad: results.reduce((n, r) => n + r.errors + r.non2xx, 0),
  };
}

async function main() {
  if (!existsSync(binary)) throw new Error("build the binary first: npm run build");
  const { db, info } = await seeded();
  const pg = await startPostgres();
  if ("skip" in pg) throw new Error(`PostgreSQL is needed: ${pg.skip}`);
  // The database server shares CPU 0 with Parley, as SQLite (inside the process) does; BENCH_PG_CPU=1
  // gives it the load generator's core instead (a database on cores of its own, as in production).
  for (const pid of run(["pgrep", "-f", `postgres.*${new URL(pg.url).port}`])
    .trim()
    .split("\n"))
    Bun.spawnSync(["taskset", "-a", "-cp", PG_CPU, pid], { stdout: "ignore" });
  try {
    const url = await pg.createDatabase("bench");
    // A seed from before the latest migration is brought up to it first: copy takes only a current file.
    run([binary, "migrate", "--db", db]);
    run([binary, "copy", "--from", db, "--to", url]);
    const setups = (
      [
        ["SQLite, 1 process", db, 1],
        ["PostgreSQL, 1 process", url, 1],
        ["PostgreSQL, 3 processes", url, 3],
      ] as [string, string, number][]
    ).filter((_, i) => SETUPS.includes(i + 1));
    const table: Record<string, Record<string, string>> = {};
    for (const [label, target, count] of setups) {
      const s = await servers(target, count);
      try {
        const chosen = SCENARIOS.filter((x) => wanted(x.name));
        // The website chat's visitors are made through the running server, on this setup's database.
        const widget = chosen.some((x) => x.needsWidget) ? await widgetSetup(s.origins[0]!, info) : undefined;
        const hook = WEBHOOK ? await benchWebhook(s.origins[0]!, info) : null;
        try {
          for (const scenario of chosen) {
            const requests = scenario.requests({ ...info, widget });
            const r = await measure(s.origins, requests, BESIDE?.requests(info) ?? null, hook);
            const sent = r.delivered === null ? "" : `, webhooks received ${Math.round(r.delivered)}/s`;
            (table[scenario.name] ??= {})[label] =
              `${r.rps} req/s, p99 ${r.p99} ms${sent}${r.bad ? ` (${r.bad} errors)` : ""}`;
            console.log(`${label} — ${scenario.name}: ${table[scenario.name]![label]}`);
          }
        } finally {
          await hook?.stop();
        }
      } finally {
        await s.stop();
      }
    }
    console.log(`\n| scenario | ${setups.map((x) => x[0]).join(" | ")} |\n|---|${setups.map(() => "---").join("|")}|`);
    for (const [name, cells] of Object.entries(table))
      console.log(`| ${name} | ${setups.map(([label]) => cells[label] ?? "—").join(" | ")} |`);
  } finally {
    await pg.stop();
  }
}

await main();

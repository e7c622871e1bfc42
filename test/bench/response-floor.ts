// The floor of a read scenario: what a bare Bun.serve reaches when it only sends that scenario's own
// answers. Parley answers each request once on the bench's database; a bare server then serves those
// bodies in turn, parsing none and stringifying each per request as Parley does (JSON.stringify of
// the parsed body), with no database, routing or authentication. What the floor leaves to Parley is
// the budget for everything else: a target of 5 % of the ceiling is out of reach where the floor
// itself is near it (test/bench/README.md "What limits each scenario now").
//
//   npm run bench                                      (once: seeds the database)
//   bun test/bench/response-floor.ts ["scenario,…"]    (default: the read scenarios below)
//
// The server side runs as `bun test/bench/response-floor.ts --serve FILE PORT` on CPU 0, wrk on CPU 1.
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, runLoad, waitForHttp } from "./load.ts";
import { SCENARIOS, type SeedInfo, seededDatabase } from "./scenarios.ts";

const READS = [
  "message-list (before, 10,000-message thread)",
  "contact-search",
  "conversation-list (filters)",
  "conversations/filter (status + label)",
];
const SECONDS = 10;
const CONNECTIONS = 32;

if (process.argv[2] === "--serve") await serve(process.argv[3]!, Number(process.argv[4]));
else await measure();

/** The bare server: the answers in turn, each stringified per request as Parley does. */
async function serve(file: string, port: number): Promise<void> {
  const bodies = JSON.parse(await Bun.file(file).text()) as unknown[];
  const headers = { "content-type": "application/json; charset=utf-8" };
  let next = 0;
  Bun.serve({
    port,
    hostname: "127.0.0.1",
    fetch: () => new Response(JSON.stringify(bodies[next++ % bodies.length]), { headers }),
  });
}

async function measure(): Promise<void> {
  const root = join(import.meta.dir, "../..");
  const db = process.env.BENCH_DB ?? seededDatabase();
  if (!existsSync(`${db}.json`)) throw new Error(`no ${db}.json: run npm run bench once first (it seeds it)`);
  const info = JSON.parse(await Bun.file(`${db}.json`).text()) as SeedInfo;
  const names = process.argv[2]?.split(",") ?? READS;
  const scenarios = names.map((name) => {
    const s = SCENARIOS.find((x) => x.name === name && !x.needsWidget && !x.needsAttachment);
    if (!s) throw new Error(`no read scenario "${name}" (the widget's and attachments' need their setup)`);
    return s;
  });
  const bodies = await answersOf(root, db, info, scenarios);
  const ceiling = await serveAndLoad([{ ok: true, id: 1, name: "helpdesk", status: "open" }]);
  console.log(`ceiling (bare Bun.serve, a small JSON): ${ceiling} req/s`);
  console.log("| scenario | answers | mean body KB | floor req/s | floor % of ceiling | floor µs a request |");
  console.log("|---|---|---|---|---|---|");
  for (const [name, list] of bodies) {
    const kb = list.reduce<number>((n, b) => n + JSON.stringify(b).length, 0) / list.length / 1024;
    const rate = await serveAndLoad(list);
    const pct = ((100 * rate) / ceiling).toFixed(1);
    console.log(`| ${name} | ${list.length} | ${kb.toFixed(1)} | ${rate} | ${pct} | ${(1e6 / rate).toFixed(0)} |`);
  }
}

/** Each scenario's answers from the compiled server on the bench's database (at most 200 a scenario). */
async function answersOf(
  root: string,
  db: string,
  info: SeedInfo,
  scenarios: typeof SCENARIOS,
): Promise<Map<string, unknown[]>> {
  const port = await freePort();
  const binary = join(root, "build/parley");
  const cmd = existsSync(binary) ? [binary] : [process.execPath, join(root, "src/main.ts")];
  const server = Bun.spawn([...cmd, "serve", "--db", db, "--port", String(port)], { stdout: "ignore" });
  const out = new Map<string, unknown[]>();
  try {
    await waitForHttp(`http://127.0.0.1:${port}/health`);
    for (const s of scenarios) {
      const list: unknown[] = [];
      for (const r of s.requests(info).slice(0, 200)) {
        const res = await fetch(`http://127.0.0.1:${port}${r.path}`, {
          method: r.method ?? "GET",
          headers: r.headers,
          body: r.body,
        });
        if (res.status !== 200) throw new Error(`${s.name}: ${r.path} answered ${res.status}`);
        list.push(await res.json());
      }
      out.set(s.name, list);
    }
  } finally {
    server.kill();
    await server.exited;
  }
  return out;
}

/** Serves `bodies` in turn from a bare server on CPU 0 and loads it from CPU 1: requests a second. */
async function serveAndLoad(bodies: unknown[]): Promise<number> {
  const file = join(tmpdir(), `parley-floor-${process.pid}.json`);
  await Bun.write(file, JSON.stringify(bodies));
  const port = await freePort();
  const server = Bun.spawn(["taskset", "-c", "0", process.execPath, import.meta.path, "--serve", file, String(port)], {
    stdout: "ignore",
  });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/`);
    const load = await runLoad({
      origin: `http://127.0.0.1:${port}`,
      requests: [{ path: "/" }],
      connections: CONNECTIONS,
      durationSeconds: SECONDS,
      cpu: "1",
    });
    return load.requestsPerSecond;
  } finally {
    server.kill();
    await server.exited;
  }
}

// Times single requests through the real app (app.handle: routing, auth, SQL, presenters, JSON)
// on an existing database, serially, in process: where a scenario's time goes, without the load
// generator in the way. Not a test. Run with
//   node_modules/.bin/bun test/bench/requests.ts DB_FILE [runs] PATH [PATH ...]
// PATH is relative to the seeded account (`/conversations?status=open`) or absolute (`/api/v2/...`);
// `$TOKEN`/`$ACCOUNT` come from the seed's JSON beside the database (DB_FILE.json).
// Prefix a path with `POST ` and append ` {json}` to time a write.
import { existsSync, readFileSync } from "node:fs";
import { inProcessApp } from "./in-process-app.ts";

const [dbPath, runsArg, ...paths] = process.argv.slice(2);
if (!dbPath || !existsSync(dbPath) || paths.length === 0) {
  console.error("usage: bun test/bench/requests.ts DB_FILE [runs] PATH [PATH ...]");
  process.exit(2);
}
const runs = Number(runsArg) || 5;
const seed = JSON.parse(readFileSync(`${dbPath}.json`, "utf8")) as { account_id: number; api_access_token: string };

const { app, migrateMs } = inProcessApp(dbPath);
if (migrateMs > 50) console.log(`migrations: ${migrateMs.toFixed(0)} ms`);

function request(spec: string): Request {
  const [, method = "GET", rest = spec] = /^(GET|POST|PATCH|DELETE) (.*)$/.exec(spec) ?? [];
  const [path, body] = rest.split(/ (?=\{)/, 2) as [string, string | undefined];
  const url =
    path.startsWith("/api/") || path.startsWith("/public/") ? path : `/api/v1/accounts/${seed.account_id}${path}`;
  return new Request(`http://localhost${url.replaceAll("$ACCOUNT", String(seed.account_id))}`, {
    method,
    headers: { api_access_token: seed.api_access_token, "content-type": "application/json" },
    body: body ?? null,
  });
}

for (const spec of paths) {
  const times: number[] = [];
  let summary = "";
  for (let i = 0; i < runs + 1; i++) {
    const t = performance.now();
    const res = await app.handle(request(spec));
    const text = await res.text();
    const ms = performance.now() - t;
    if (i > 0) times.push(ms); // the first run warms statements and caches
    summary = `${res.status} ${text.length} B`;
    if (res.status >= 400) summary += ` ${text.slice(0, 200)}`;
  }
  times.sort((a, b) => a - b);
  console.log(
    `${times[Math.floor(times.length / 2)]!.toFixed(3).padStart(9)} ms median  ${times.at(-1)!.toFixed(1).padStart(8)} ms max  ${summary}  ${spec}`,
  );
}

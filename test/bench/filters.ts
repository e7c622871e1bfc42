// POST contacts/filter (Evolution API's phone lookup) and POST conversations/filter (status +
// label, the mobile app's filtered list) over a million contacts and conversations, timed through
// the real app (app.handle: routing, auth, validation, SQL, presenters, JSON), serially.
// Not a test: `node_modules/.bin/bun test/bench/filters.ts [contacts] [conversations]`.
// PARLEY_BENCH_KEEP=1 keeps the seeded database; PARLEY_BENCH_DB=<path> reuses one (seeded by
// this script or by `parley seed`, which label conversations alike).
// The ceiling is GET /health through the same app.handle, so the ratio reads on any machine.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { contactFields, seedContacts, seedConversations } from "../../src/db/seed.repo.ts";
import { createDeps } from "../../src/deps.ts";
import { createLogger } from "../../src/lib/logger.ts";

const CONTACTS = Number(process.argv[2] ?? 1_000_000);
const CONVERSATIONS = Number(process.argv[3] ?? 1_000_000);
const N = 300;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const reuse = process.env.PARLEY_BENCH_DB;
const dir = reuse ? null : mkdtempSync(join(tmpdir(), "parley-bench-filters-"));
const dbPath = reuse ?? join(dir!, "bench.db");
const db = openDatabase(dbPath);
migrate(db);
const deps = createDeps({ db, config: loadConfig({ db: dbPath }, {}), logger: createLogger("silent") });
const app = createApp(deps);
const now = Math.floor(Date.now() / 1000);

async function seed() {
  const boot = await deps.services.accounts.bootstrap({
    account: "Bench",
    name: "Bench Admin",
    email: "bench-filters@example.com",
  });
  const principal = deps.services.auth.account(boot.api_access_token, String(boot.account_id));
  const inbox = await deps.services.inboxes.create(principal, { name: "API", channel: { type: "api" } });
  const agentIds: number[] = [];
  for (const n of ["a", "b", "c", "d"]) {
    const id = await deps.writeTx(() => deps.services.accounts.findOrCreateUser(n, `${n}-filters@example.com`, now));
    await deps.services.accounts.addMember(boot.account_id, id, "agent");
    agentIds.push(id);
  }
  const teamIds: number[] = [];
  for (const name of ["sales", "support", "billing"])
    teamIds.push((await deps.services.teams.create(principal, { name })).id);
  console.log(
    `seeding ${CONTACTS.toLocaleString()} contacts and ${CONVERSATIONS.toLocaleString()} conversations into ${dbPath}`,
  );
  let t = performance.now();
  seedContacts(db, boot.account_id, CONTACTS, now);
  seedConversations(db, {
    accountId: boot.account_id,
    inboxId: inbox.id,
    count: CONVERSATIONS,
    messagesPerConversation: 1,
    agentIds,
    teamIds,
    now,
  });
  // seedConversations labels one conversation in 13 "billing" and one in 97 "vip".
  db.exec("ANALYZE");
  console.log(`  seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
}

if (!reuse) await seed();
const admin = db
  .query("SELECT account_id, user_id FROM account_users WHERE role = 'administrator' ORDER BY account_id LIMIT 1")
  .get() as { account_id: number; user_id: number };
const token = await deps.services.accounts.issueToken(admin.user_id);
const base = `http://localhost/api/v1/accounts/${admin.account_id}`;

async function timeit(label: string, make: (i: number) => Request, detail: (b: any) => string): Promise<number> {
  Bun.gc(true);
  const times: number[] = [];
  let last: any;
  for (let i = 0; i < N + 10; i++) {
    const t = performance.now();
    const res = await app.handle(make(i));
    last = await res.json();
    if (res.status !== 200) throw new Error(`${label}: ${res.status} ${JSON.stringify(last)}`);
    if (i >= 10) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const p50 = pct(times, 50);
  console.log(
    `${label.padEnd(62)} p50 ${p50.toFixed(2).padStart(7)} ms  p99 ${pct(times, 99).toFixed(2).padStart(7)} ms  ${detail(last)}`,
  );
  return p50;
}

const post = (path: string, payload: unknown) =>
  new Request(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", api_access_token: token },
    body: JSON.stringify({ payload }),
  });
/** Evolution's lookup: identifier OR phone_number, the number without "+". */
const evolution = (digits: string) => [
  { attribute_key: "identifier", filter_operator: "equal_to", values: [digits], query_operator: "OR" },
  { attribute_key: "phone_number", filter_operator: "equal_to", values: [digits], query_operator: null },
];
// Seeded phone numbers: contacts i with i % 20 >= 10 have +1(2000000000 + i).
const phoneOf = (k: number) => {
  const i = ((k * 7919) % CONTACTS) - (((k * 7919) % CONTACTS) % 20) + 10;
  return contactFields(i).phone_number!.slice(1);
};

console.log(
  `\nfilters over ${CONTACTS.toLocaleString()} contacts / ${CONVERSATIONS.toLocaleString()} conversations (${N} requests each, serial, in-process):`,
);
const ceiling = await timeit(
  "ceiling: GET /health",
  () => new Request("http://localhost/health"),
  () => "ok",
);
const results: [string, number][] = [];
results.push([
  "contacts/filter by phone (Evolution, hits)",
  await timeit(
    "contacts/filter: Evolution phone lookup (rotating numbers)",
    (i) => post("/contacts/filter", evolution(phoneOf(i))),
    (b) => `count ${b.meta.count}`,
  ),
]);
results.push([
  "contacts/filter by phone (miss)",
  await timeit(
    "contacts/filter: phone lookup, no such number",
    (i) => post("/contacts/filter", evolution(`4470000${String(i).padStart(5, "0")}`)),
    (b) => `count ${b.meta.count}`,
  ),
]);
const statusLabel = (status: string, label: string) => [
  { attribute_key: "status", filter_operator: "equal_to", values: [status], query_operator: "AND" },
  { attribute_key: "labels", filter_operator: "equal_to", values: [label], query_operator: null },
];
results.push([
  "conversations/filter open + billing",
  await timeit(
    "conversations/filter: status open AND label billing",
    () => post("/conversations/filter", statusLabel("open", "billing")),
    (b) => `all_count ${b.meta.all_count.toLocaleString()}, ${b.payload.length} on the page`,
  ),
]);
results.push([
  "conversations/filter resolved + vip",
  await timeit(
    "conversations/filter: status resolved AND label vip",
    () => post("/conversations/filter", statusLabel("resolved", "vip")),
    (b) => `all_count ${b.meta.all_count.toLocaleString()}, ${b.payload.length} on the page`,
  ),
]);
console.log("\nratio of p50 to the in-process ceiling:");
for (const [name, p50] of results) console.log(`  ${name.padEnd(44)} ${(p50 / ceiling).toFixed(0)}×`);

db.close();
if (dir && process.env.PARLEY_BENCH_KEEP !== "1") rmSync(dir, { recursive: true, force: true });
else console.log(`\ndatabase kept: ${dbPath}`);

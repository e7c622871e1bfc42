// Contact search over 1,000,000 contacts and message pages of a 100,000-message conversation,
// timed through the real app (app.handle: routing, auth, validation, SQL, presenters, JSON).
// Not a test: run with `node_modules/.bin/bun test/bench/search-and-list.ts [contacts] [messages]`.
// PARLEY_BENCH_KEEP=1 keeps the seeded database (its path is printed); PARLEY_BENCH_DB=<path>
// times an already seeded one instead of seeding; BENCH_N=<n> sets the requests per scenario (200).
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { seedContacts, seedThread } from "../../src/db/seed.repo.ts";
import { createDeps } from "../../src/deps.ts";
import { createLogger } from "../../src/lib/logger.ts";

const CONTACTS = Number(process.argv[2] ?? 1_000_000);
const MESSAGES = Number(process.argv[3] ?? 100_000);

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timeit(label: string, n: number, fn: () => Promise<Response>, detail: (body: any) => string) {
  Bun.gc(true); // start each scenario with a clean heap, so the seed's garbage is not billed to it
  const times: number[] = [];
  let last: any;
  for (let i = 0; i < n + 5; i++) {
    const t = performance.now();
    const res = await fn();
    last = await res.json();
    if (res.status !== 200) throw new Error(`${label}: ${res.status} ${JSON.stringify(last)}`);
    if (i >= 5) times.push(performance.now() - t); // the first runs warm the statement cache
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(58)} p50 ${pct(times, 50).toFixed(2).padStart(7)} ms  p99 ${pct(times, 99).toFixed(2).padStart(7)} ms  ${detail(last)}`,
  );
}

const reuse = process.env.PARLEY_BENCH_DB;
const dir = reuse ? null : mkdtempSync(join(tmpdir(), "parley-bench-"));
const dbPath = reuse ?? join(dir!, "bench.db");
const db = openDatabase(dbPath);
migrate(db);
const deps = createDeps({ db, config: loadConfig({ db: dbPath }, {}), logger: createLogger("silent") });
const app = createApp(deps);
const now = Math.floor(Date.now() / 1000);
const { accountId, token, displayId, conversationId } = reuse ? await reopen() : await seed();

/** A seeded database given again: a fresh token for its administrator. */
async function reopen() {
  const admin = db.query("SELECT account_id, user_id FROM account_users ORDER BY account_id LIMIT 1").get() as {
    account_id: number;
    user_id: number;
  };
  const conv = db
    .query("SELECT id, display_id FROM conversations WHERE account_id = ? ORDER BY id LIMIT 1")
    .get(admin.account_id) as { id: number; display_id: number };
  return {
    accountId: admin.account_id,
    userId: admin.user_id,
    token: await deps.services.accounts.issueToken(admin.user_id),
    displayId: conv.display_id,
    conversationId: conv.id,
  };
}

async function seed() {
  const {
    account_id: accountId,
    user_id: userId,
    api_access_token: token,
  } = await deps.services.accounts.bootstrap({ account: "Bench", name: "Bench Admin", email: "bench@example.com" });
  const inboxId = Number(
    db
      .query(
        "INSERT INTO inboxes (account_id, name, channel_type, created_at, updated_at) VALUES (?, 'API', 'api', ?, ?)",
      )
      .run(accountId, now, now).lastInsertRowid,
  );

  console.log(
    `seeding ${CONTACTS.toLocaleString()} contacts and a ${MESSAGES.toLocaleString()}-message conversation into ${dbPath}`,
  );
  let t0 = performance.now();
  seedContacts(db, accountId, CONTACTS, now);
  console.log(`  contacts: ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  t0 = performance.now();
  const contactId = (
    db.query("SELECT id FROM contacts WHERE account_id = ? AND email IS NOT NULL LIMIT 1").get(accountId) as {
      id: number;
    }
  ).id;
  const created = await app.handle(
    new Request(`http://localhost/api/v1/accounts/${accountId}/conversations`, {
      method: "POST",
      headers: { "content-type": "application/json", api_access_token: token },
      body: JSON.stringify({ inbox_id: inboxId, contact_id: contactId, assignee_id: userId }),
    }),
  );
  const displayId = ((await created.json()) as { id: number }).id;
  const conversationId = (
    db.query("SELECT id FROM conversations WHERE account_id = ? AND display_id = ?").get(accountId, displayId) as {
      id: number;
    }
  ).id;
  seedThread(db, { accountId, inboxId, conversationId, contactId, userId }, MESSAGES, now);
  db.exec("ANALYZE");
  console.log(
    `  messages: ${((performance.now() - t0) / 1000).toFixed(1)} s; database ${(statSync(dbPath).size / 1e6).toFixed(0)} MB`,
  );
  return { accountId, userId, token, displayId, conversationId };
}

const get = (path: string) => () =>
  app.handle(
    new Request(`http://localhost/api/v1/accounts/${accountId}${path}`, { headers: { api_access_token: token } }),
  );
const search = (qs: string) => get(`/contacts/search?${qs}`);
const count = (b: any) => `count ${b.meta.count.toLocaleString()}, ${b.payload.length} on the page`;
const N = Number(process.env.BENCH_N ?? 200);

console.log(`\ncontact search over ${CONTACTS.toLocaleString()} contacts (${N} requests each, serial, in-process):`);
const sample = {
  email: (
    db.query("SELECT email FROM contacts WHERE email IS NOT NULL ORDER BY id DESC LIMIT 1").get() as { email: string }
  ).email,
  identifier: (
    db.query("SELECT identifier FROM contacts WHERE identifier IS NOT NULL ORDER BY id DESC LIMIT 1").get() as {
      identifier: string;
    }
  ).identifier,
};
await timeit(`rare term (one email: ${sample.email})`, N, search(`q=${encodeURIComponent(sample.email)}`), count);
await timeit(`identifier, exact case (${sample.identifier})`, N, search(`q=${sample.identifier}`), count);
await timeit("surname 'kowalski'", N, search("q=kowalski"), count);
await timeit("surname 'smith'", N, search("q=smith"), count);
await timeit("common trigram 'son'", N, search("q=son"), count);
await timeit("2-character term 'ki' (indexed prefix)", N, search("q=ki"), count);
await timeit("sorted: 'kowalski' sort=name", N, search("q=kowalski&sort=name"), count);
await timeit("sorted: 'smith' sort=-last_activity_at", N, search("q=smith&sort=-last_activity_at"), count);
await timeit("sorted: 'son' sort=name (an eighth of the contacts)", N, search("q=son&sort=name"), count);
await timeit("sorted: 'gmail' sort=-last_activity_at", N, search("q=gmail&sort=-last_activity_at"), count);
await timeit("sorted: 'gmail' sort=name (hits late in the order)", N, search("q=gmail&sort=name"), count);
await timeit("'smith' page 40", N, search("q=smith&page=40"), count);
await timeit("absent term", N, search("q=zzqzz"), count);

console.log(
  `\ncontact list over ${CONTACTS.toLocaleString()} contacts, each sort the web app offers (${N} requests each):`,
);
const list = (qs: string) => get(`/contacts?${qs}`);
for (const sort of [
  "name",
  "-created_at",
  "email",
  "-email",
  "phone_number",
  "-phone_number",
  "last_activity_at",
  "-last_activity_at",
])
  await timeit(`list sort=${sort}`, N, list(`sort=${sort}`), count);
await timeit("list sort=-last_activity_at page 400", N, list("sort=-last_activity_at&page=400"), count);

const ids = db
  .query("SELECT min(id) AS lo, max(id) AS hi FROM messages WHERE conversation_id = ?")
  .get(conversationId) as { lo: number; hi: number };
const mid = Math.floor((ids.lo + ids.hi) / 2);
const pageInfo = (b: any) => `${b.payload.length} messages, ids ${b.payload[0]?.id}..${b.payload.at(-1)?.id}`;
console.log(`\nmessage list of a ${MESSAGES.toLocaleString()}-message conversation (${N} requests each):`);
await timeit("latest 20 (no params)", N, get(`/conversations/${displayId}/messages`), pageInfo);
await timeit("before=<middle id> (20)", N, get(`/conversations/${displayId}/messages?before=${mid}`), pageInfo);
await timeit(
  "before=<oldest+25> (20, deep in history)",
  N,
  get(`/conversations/${displayId}/messages?before=${ids.lo + 25}`),
  pageInfo,
);
await timeit("after=<middle id> (100)", N, get(`/conversations/${displayId}/messages?after=${mid}`), pageInfo);
await timeit(
  "after=…&before=… (range of 1000)",
  N,
  get(`/conversations/${displayId}/messages?after=${mid}&before=${mid + 1000}`),
  pageInfo,
);
await timeit("conversation show", N, get(`/conversations/${displayId}`), (b) => `unread_count ${b.unread_count}`);

// Message creation: serial requests spread over 100 conversations (the flood guard allows 200 a
// minute in one).
const targets: number[] = [];
for (let i = 0; i < 100; i++) {
  const r = await app.handle(
    new Request(`http://localhost/api/v1/accounts/${accountId}/conversations`, {
      method: "POST",
      headers: { "content-type": "application/json", api_access_token: token },
      body: JSON.stringify({ inbox_id: inboxIdOf(), contact_id: 1 + i * 7 }),
    }),
  );
  targets.push(((await r.json()) as { id: number }).id);
}
let turn = 0;
const post = (type: string) => () =>
  app.handle(
    new Request(
      `http://localhost/api/v1/accounts/${accountId}/conversations/${targets[turn++ % targets.length]}/messages`,
      {
        method: "POST",
        headers: { "content-type": "application/json", api_access_token: token },
        body: JSON.stringify({ content: "Hello, my order has not arrived yet.", message_type: type }),
      },
    ),
  );
console.log(`\nmessage creation (${N * 5} requests each, serial, 100 conversations):`);
for (const type of ["incoming", "outgoing"])
  await timeit(`create an ${type} message`, N * 5, post(type), (b) => `message ${b.id}`);

function inboxIdOf(): number {
  return (db.query("SELECT id FROM inboxes WHERE account_id = ? ORDER BY id LIMIT 1").get(accountId) as { id: number })
    .id;
}

db.close();
if (dir && process.env.PARLEY_BENCH_KEEP !== "1") rmSync(dir, { recursive: true, force: true });
else console.log(`\ndatabase kept: ${dbPath}`);

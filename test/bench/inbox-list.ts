// What the web inbox asks of an account with many conversations (default 100,000, three messages
// each), timed through the real app (app.handle: routing, auth, SQL, presenters, JSON): the list's
// first page with counts for each tab and filter, a deep page, search, and the live poll's requests.
// Not a test: run with `node_modules/.bin/bun test/bench/inbox-list.ts [conversations]`;
// PARLEY_BENCH_KEEP=1 keeps the seeded database (its path is printed).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { createLogger } from "../../src/lib/logger.ts";

const CONVERSATIONS = Number(process.argv[2] ?? 100_000);
const N = 100;
const STATUSES = [
  "resolved",
  "resolved",
  "resolved",
  "open",
  "open",
  "resolved",
  "pending",
  "open",
  "snoozed",
  "resolved",
] as const;
const WORDS = [
  "order",
  "refund",
  "delivery",
  "invoice",
  "password",
  "login",
  "shipping",
  "discount",
  "warranty",
  "upgrade",
];

const dir = mkdtempSync(join(tmpdir(), "parley-bench-inbox-"));
const dbPath = join(dir, "bench.db");
const db = openDatabase(dbPath);
migrate(db);
const deps = createDeps({ db, config: loadConfig({ db: dbPath }, {}), logger: createLogger("silent") });
const app = createApp(deps);
const now = Math.floor(Date.now() / 1000);

const {
  account_id: accountId,
  user_id: adminId,
  api_access_token: token,
} = await deps.services.accounts.bootstrap({ account: "Bench", name: "Bench Admin", email: "bench@example.com" });
const agents = [
  adminId,
  ...[1, 2, 3, 4].map((i) =>
    deps.writeTx.now(() => deps.services.accounts.findOrCreateUser(`Agent ${i}`, `agent${i}@example.com`, now)),
  ),
];
for (const id of agents.slice(1)) await deps.services.accounts.addMember(accountId, id, "agent");
const inboxIds = [1, 2].map((i) =>
  Number(
    db
      .query("INSERT INTO inboxes (account_id, name, channel_type, created_at, updated_at) VALUES (?, ?, 'api', ?, ?)")
      .run(accountId, `API ${i}`, now, now).lastInsertRowid,
  ),
);
const teamIds = [1, 2].map((i) =>
  Number(
    db
      .query("INSERT INTO teams (account_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)")
      .run(accountId, `team ${i}`, now, now).lastInsertRowid,
  ),
);

console.log(`seeding ${CONVERSATIONS.toLocaleString()} conversations (3 messages each) into ${dbPath}`);
const t0 = performance.now();
const contact = db.prepare(
  "INSERT INTO contacts (account_id, name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
);
const contactInbox = db.prepare(
  "INSERT INTO contact_inboxes (contact_id, inbox_id, source_id, pubsub_token, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
);
const conversation = db.prepare(
  `INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, status, assignee_id, team_id, last_activity_at, waiting_since, created_at, updated_at_ms)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const message = db.prepare(
  "INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, sender_type, sender_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
);
const label = db.prepare("INSERT INTO conversation_labels (conversation_id, account_id, title) VALUES (?, ?, ?)");
for (let i = 1; i <= CONVERSATIONS; ) {
  db.transaction(() => {
    for (let k = 0; k < 10_000 && i <= CONVERSATIONS; k++, i++) {
      const at = now - (CONVERSATIONS - i) * 30;
      const inbox = inboxIds[i % 2]!;
      const c = Number(contact.run(accountId, `Customer ${i}`, `customer${i}@example.com`, at, at).lastInsertRowid);
      const ci = Number(contactInbox.run(c, inbox, `src-${i}`, `pubsub-${i}`, at, at).lastInsertRowid);
      const assignee = i % 3 === 0 ? null : agents[Math.floor(i / 3) % agents.length]!;
      const team = i % 4 === 0 ? teamIds[i % 2]! : null;
      const id = Number(
        conversation.run(
          accountId,
          i,
          crypto.randomUUID(),
          inbox,
          c,
          ci,
          STATUSES[i % STATUSES.length]!,
          assignee,
          team,
          at,
          at,
          at - 120,
          at * 1000,
        ).lastInsertRowid,
      );
      const word = WORDS[i % WORDS.length]!;
      message.run(
        accountId,
        inbox,
        id,
        0,
        `Hello, a question about my ${word} number ${i}`,
        "Contact",
        c,
        at - 120,
        at - 120,
      );
      message.run(
        accountId,
        inbox,
        id,
        1,
        `Thanks, we are looking into your ${word}.`,
        "User",
        assignee ?? adminId,
        at - 60,
        at - 60,
      );
      message.run(accountId, inbox, id, 0, `Any news on ${word} ${i}?`, "Contact", c, at, at);
      if (i % 10 === 0) label.run(id, accountId, i % 20 === 0 ? "vip" : "billing");
    }
  })();
}
db.query("INSERT INTO account_counters (account_id, name, value) VALUES (?, 'conversation_display_id', ?)").run(
  accountId,
  CONVERSATIONS,
);
db.exec("ANALYZE");
console.log(`  ${((performance.now() - t0) / 1000).toFixed(1)} s`);

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timeit(label: string, path: string, detail: (body: any) => string, method = "GET") {
  Bun.gc(true);
  const times: number[] = [];
  let last: any;
  for (let i = 0; i < N + 5; i++) {
    const t = performance.now();
    const res = await app.handle(
      new Request(`http://localhost/api/v1/accounts/${accountId}${path}`, {
        method,
        headers: { api_access_token: token },
      }),
    );
    last = await res.json();
    if (res.status !== 200) throw new Error(`${label}: ${res.status} ${JSON.stringify(last)}`);
    if (i >= 5) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(52)} p50 ${pct(times, 50).toFixed(2).padStart(7)} ms  p99 ${pct(times, 99).toFixed(2).padStart(7)} ms  ${detail(last)}`,
  );
}

const list = (b: any) =>
  `${b.data.payload.length} rows; mine ${b.data.meta.mine_count}, unassigned ${b.data.meta.unassigned_count}, all ${b.data.meta.all_count}`;
console.log(`\nthe inbox's requests, ${CONVERSATIONS.toLocaleString()} conversations (${N} each, serial, in-process):`);
await timeit("first load: mine, open", "/conversations?assignee_type=me&status=open", list);
await timeit("unassigned, open", "/conversations?assignee_type=unassigned&status=open", list);
await timeit("all, open", "/conversations?assignee_type=all&status=open", list);
await timeit("all, every status", "/conversations?assignee_type=all&status=all", list);
await timeit("all, open, one inbox", `/conversations?assignee_type=all&status=open&inbox_id=${inboxIds[0]}`, list);
await timeit("all, open, one team", `/conversations?assignee_type=all&status=open&team_id=${teamIds[0]}`, list);
await timeit("all, every status, label vip", "/conversations?assignee_type=all&status=all&labels[]=vip", list);
await timeit("all, open, page 40", "/conversations?assignee_type=all&status=open&page=40", list);
await timeit("search 'warranty' (every status)", "/conversations?assignee_type=all&q=warranty", list);
await timeit("search 'number 99999' (rare)", "/conversations?assignee_type=all&q=number%2099999", list);
const newest = CONVERSATIONS;
const lastMessage = (db.query("SELECT max(id) AS id FROM messages").get() as { id: number }).id;
await timeit("poll: conversation show", `/conversations/${newest}`, (b) => `unread ${b.unread_count}`);
await timeit(
  "poll: messages after the last",
  `/conversations/${newest}/messages?after=${lastMessage}`,
  (b) => `${b.payload.length} messages`,
);
await timeit("open: latest messages", `/conversations/${newest}/messages`, (b) => `${b.payload.length} messages`);

if (process.env.PARLEY_BENCH_KEEP === "1") console.log(`\nkept ${dbPath}`);
else rmSync(dir, { recursive: true, force: true });

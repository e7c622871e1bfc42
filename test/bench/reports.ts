// The summary reports over 1,000,000 conversations and their reporting events, spread over a year,
// timed through the real app (app.handle: routing, auth, parameters, SQL, JSON).
// Not a test: run with `node_modules/.bin/bun test/bench/reports.ts [conversations]`.
// Besides wall-clock p50/p99 it prints the process CPU time per call (p50): on a shared machine the
// wall clock also counts the time other processes held the CPU.
// PARLEY_BENCH_KEEP=1 keeps the seeded database (its path is printed); PARLEY_BENCH_DB=<path>
// times an already seeded one instead of seeding.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { DEFAULT_WORKING_HOURS } from "../../src/domain/working-hours.ts";
import { createLogger } from "../../src/lib/logger.ts";

const CONVERSATIONS = Number(process.argv[2] ?? 1_000_000);
const TEAMS = 20;
const AGENTS = 50;
const INBOXES = 5;
const CONTACTS = 10_000;
const BATCH = 50_000;
const YEAR = 365 * 86_400;
const MONTH = 30 * 86_400;

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const reuse = process.env.PARLEY_BENCH_DB;
const dir = reuse ? null : mkdtempSync(join(tmpdir(), "parley-bench-"));
const dbPath = reuse ?? join(dir!, "reports.db");
const db = openDatabase(dbPath);
migrate(db);
const deps = createDeps({ db, config: loadConfig({ db: dbPath }, {}), logger: createLogger("silent") });
const app = createApp(deps);
const { accountId, token, end } = reuse ? await reopen() : await seed();

async function reopen() {
  const admin = db
    .query("SELECT account_id, user_id FROM account_users WHERE role = 'administrator' ORDER BY account_id LIMIT 1")
    .get() as { account_id: number; user_id: number };
  const last = db
    .query("SELECT max(created_at) AS t FROM conversations WHERE account_id = ?")
    .get(admin.account_id) as { t: number };
  return {
    accountId: admin.account_id,
    token: await deps.services.accounts.issueToken(admin.user_id),
    end: last.t + 1,
  };
}

async function seed() {
  const { account_id: accountId, api_access_token: token } = await deps.services.accounts.bootstrap({
    account: "Bench",
    name: "Bench Admin",
    email: "bench@example.com",
  });
  const end = Math.floor(Date.now() / 1000);
  const start = end - YEAR;
  console.log(
    `seeding ${CONVERSATIONS.toLocaleString()} conversations over a year, ${TEAMS} teams, ${AGENTS} agents, ${INBOXES} inboxes into ${dbPath}`,
  );
  const t0 = performance.now();
  db.transaction(() => {
    for (let i = 0; i < INBOXES; i++) {
      // Two inboxes keep office hours (business-hours values), the rest have them off (NULL).
      db.query(
        `INSERT INTO inboxes (account_id, name, channel_type, working_hours_enabled, working_hours, timezone, created_at, updated_at)
         VALUES (?, ?, 'api', ?, ?, ?, ?, ?)`,
      ).run(
        accountId,
        `Inbox ${i}`,
        i < 2 ? 1 : 0,
        JSON.stringify(DEFAULT_WORKING_HOURS),
        i === 0 ? "Europe/Berlin" : "America/New_York",
        start,
        start,
      );
    }
    for (let i = 0; i < TEAMS; i++)
      db.query("INSERT INTO teams (account_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)").run(
        accountId,
        `team ${i}`,
        start,
        start,
      );
    for (let i = 0; i < AGENTS; i++) {
      const userId = deps.services.accounts.findOrCreateUser(`Agent ${i}`, `agent${i}@example.com`, start);
      db.query("INSERT INTO account_users (account_id, user_id, role, created_at) VALUES (?, ?, 'agent', ?)").run(
        accountId,
        userId,
        start,
      );
    }
    for (let i = 0; i < CONTACTS; i++) {
      const contactId = Number(
        db
          .query("INSERT INTO contacts (account_id, name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?)")
          .run(accountId, `Contact ${i}`, `c${i}@example.com`, start, start).lastInsertRowid,
      );
      db.query(
        "INSERT INTO contact_inboxes (contact_id, inbox_id, source_id, pubsub_token, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
      ).run(contactId, firstId("inboxes") + (i % INBOXES), `src-${i}`, `pub-${i}`, start, start);
    }
  })();
  const team0 = firstId("teams");
  const agent0 = (
    db.query("SELECT min(user_id) AS id FROM account_users WHERE account_id = ? AND role = 'agent'").get(accountId) as {
      id: number;
    }
  ).id;
  const ci0 = firstId("contact_inboxes");
  const insertConversations = db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT $from UNION ALL SELECT i + 1 FROM n WHERE i < $to),
       r AS (SELECT i, ($ci0 + i % $contacts) AS ci, $start + abs(random()) % $year AS t FROM n)
     INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, status, assignee_id, team_id,
       waiting_since, first_reply_created_at, last_activity_at, created_at, updated_at_ms)
     SELECT $account, i, 'bench-' || i, x.inbox_id, x.contact_id, x.id,
       CASE WHEN i % 5 = 0 THEN 'open' ELSE 'resolved' END,
       CASE WHEN i % 7 = 0 THEN NULL ELSE $agent0 + i % $agents END,
       CASE WHEN i % 10 = 0 THEN NULL ELSE $team0 + (i * 7) % $teams END,
       NULL, t + 60, t + 3600, t, t * 1000
     FROM r JOIN contact_inboxes x ON x.id = r.ci`,
  );
  for (let from = 1; from <= CONVERSATIONS; from += BATCH) {
    const to = Math.min(CONVERSATIONS, from + BATCH - 1);
    db.transaction(() =>
      insertConversations.run({
        from,
        to,
        ci0,
        contacts: CONTACTS,
        start,
        year: YEAR,
        account: accountId,
        agent0,
        agents: AGENTS,
        team0,
        teams: TEAMS,
      }),
    )();
  }
  console.log(`  conversations: ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // Events per conversation, copying its account, inbox, team and assignee: a first response for 90%,
  // one reply time for 60% (a second for 30%), a resolution for 80%, resolved again after a reopening
  // for 5%. Business-hours values exist only in the two inboxes with working hours.
  const t1 = performance.now();
  const bh = `CASE WHEN c.inbox_id < ${firstId("inboxes") + 2} THEN v / 3 ELSE NULL END`;
  const events = (name: string, where: string, value: string, offset: string) =>
    db.prepare(
      `INSERT INTO reporting_events (name, value, value_in_business_hours, account_id, inbox_id, user_id, team_id, conversation_id,
         event_start_time, event_end_time, created_at)
       SELECT '${name}', v, ${bh}, c.account_id, c.inbox_id, c.assignee_id, c.team_id, c.id, c.created_at + ${offset}, c.created_at + ${offset} + v, c.created_at + ${offset} + v
       FROM (SELECT c.*, ${value} AS v FROM conversations c WHERE c.id BETWEEN $from AND $to AND ${where}) c`,
    );
  const kinds = [
    events("first_response", "c.id % 10 <> 0", "30 + abs(random()) % 7200", "0"),
    events("reply_time", "c.id % 10 < 6", "60 + abs(random()) % 14400", "7200"),
    events("reply_time", "c.id % 10 < 3", "60 + abs(random()) % 28800", "36000"),
    events("conversation_resolved", "c.status = 'resolved'", "3600 + abs(random()) % 259200", "0"),
    events("conversation_opened", "c.status = 'resolved' AND c.id % 20 = 1", "3600 + abs(random()) % 86400", "262800"),
    events("conversation_resolved", "c.status = 'resolved' AND c.id % 20 = 1", "400000 + abs(random()) % 86400", "0"),
  ];
  const c0 = firstId("conversations");
  for (let from = c0; from < c0 + CONVERSATIONS; from += BATCH) {
    db.transaction(() => {
      for (const k of kinds) k.run({ from, to: from + BATCH - 1 });
    })();
  }
  const n = (db.query("SELECT count(*) AS n FROM reporting_events").get() as { n: number }).n;
  console.log(`  ${n.toLocaleString()} reporting events: ${((performance.now() - t1) / 1000).toFixed(1)} s`);

  // Half the conversations carry one of ten labels (the label report joins them).
  const t2 = performance.now();
  db.exec(`INSERT INTO conversation_labels (conversation_id, account_id, title)
           SELECT id, account_id, 'label-' || (id % 10) FROM conversations WHERE id % 2 = 0`);
  console.log(`  labels: ${((performance.now() - t2) / 1000).toFixed(1)} s`);
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  return { accountId, token, end: end + 1 };
}

function firstId(table: string): number {
  return (db.query(`SELECT min(id) AS id FROM ${table}`).get() as { id: number }).id;
}

async function timeit(label: string, path: string, n: number) {
  Bun.gc(true);
  const times: number[] = [];
  const cpu: number[] = [];
  let body: any;
  for (let i = 0; i < n + 3; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    const res = await app.handle(
      new Request(`http://localhost/api/v2/accounts/${accountId}/${path}`, { headers: { api_access_token: token } }),
    );
    body = await res.json();
    if (res.status !== 200) throw new Error(`${label}: ${res.status} ${JSON.stringify(body)}`);
    const used = process.cpuUsage(c);
    if (i >= 3) {
      // the first calls warm the page cache
      times.push(performance.now() - t);
      cpu.push((used.user + used.system) / 1000);
    }
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const rows = Array.isArray(body) ? body : [body];
  const count = rows.reduce((s: number, r: any) => s + (r.conversations_count ?? 0), 0);
  console.log(
    `${label.padEnd(44)} p50 ${pct(times, 50).toFixed(1).padStart(7)} ms  p99 ${pct(times, 99).toFixed(1).padStart(7)} ms  cpu p50 ${pct(cpu, 50).toFixed(1).padStart(6)} ms  (${rows.length} rows, ${count.toLocaleString()} conversations)`,
  );
}

const month = `since=${end - MONTH}&until=${end}`;
const year = `since=${end - YEAR - 1}&until=${end}`;
console.log(
  `\ndatabase ${(statSync(dbPath).size / 1e6).toFixed(0)} MB; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}; EXPLAIN QUERY PLAN of the team summary:`,
);
for (const line of deps.repos.reports.plans("team", "value")) console.log(`  ${line}`);
console.log("");
await timeit("team summary, month", `summary_reports/team?${month}`, 100);
await timeit("team summary, month, business hours", `summary_reports/team?${month}&business_hours=true`, 100);
await timeit("team summary, year", `summary_reports/team?${year}`, 20);
await timeit("agent summary, month", `summary_reports/agent?${month}`, 50);
await timeit("inbox summary, month", `summary_reports/inbox?${month}`, 50);
await timeit("label summary, month", `summary_reports/label?${month}`, 20);
await timeit("account overview (+ previous), month", `reports/summary?${month}`, 50);

db.close();
if (dir && process.env.PARLEY_BENCH_KEEP !== "1") rmSync(dir, { recursive: true, force: true });
else console.log(`\nkept ${dbPath} (PARLEY_BENCH_DB=${dbPath} to time it again)`);

// Query plans and the planner's statistics. Statistics taken while a table was small (a seeded
// database analysed while `events` held one row) once made the event bus scan the whole events
// table for every batch. Two defences: refreshPlannerStatistics re-analyses tables that grew, and
// every hot statement is written so that its plan does not depend on sqlite_stat1 at all (named
// indexes, single-row rowid lookups). The second is checked here by planting statistics that say
// every table holds one row and explaining every statement the hot paths run.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase, refreshPlannerStatistics } from "../../src/db/open.ts";
import { makeAccount } from "../helpers/factories.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";
import { agentSays, newContact, openConversation, publicWorld, say } from "../helpers/public-fixtures.ts";

type Db = ReturnType<typeof openDatabase>;

/**
 * Prepared and finalized, not cached by db.query: bun:sqlite leaves an EXPLAIN of a write counted
 * as a write in progress until the statement is reset, and the COMMIT that ends the turn's read
 * snapshot on this connection (src/db/tx.ts) would then fail.
 */
const planOf = (db: Db, sql: string) => {
  const explain = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  try {
    return (explain.all() as { detail: string }[]).map((r) => r.detail);
  } finally {
    explain.finalize();
  }
};

/** sqlite_stat1 as ANALYZE writes it when every table holds one row, loaded into the planner. */
function plantOneRowStatistics(db: Db): void {
  db.exec("ANALYZE");
  db.exec("DELETE FROM sqlite_stat1");
  const tables = db
    .query(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'",
    )
    .all() as { name: string }[];
  const insert = db.prepare("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)");
  for (const { name } of tables) {
    insert.run(name, null, "1");
    for (const { name: idx } of db.query("SELECT name FROM pragma_index_list(?)").all(name) as { name: string }[]) {
      const columns = (db.query("SELECT count(*) AS n FROM pragma_index_info(?)").get(idx) as { n: number }).n;
      insert.run(
        name,
        idx,
        Array(columns + 1)
          .fill("1")
          .join(" "),
      );
    }
  }
  db.exec("ANALYZE sqlite_schema"); // reloads the statistics into the planner
}

/**
 * Records the SQL of every statement executed while `on`: statements are wrapped as they are
 * prepared, so the harness must be created after this (and restore() called at the end).
 */
function recordStatements() {
  const proto = Database.prototype as unknown as Record<
    "prepare" | "query",
    (this: Database, sql: string, ...rest: unknown[]) => Record<string, unknown>
  >;
  const originals = { prepare: proto.prepare, query: proto.query };
  const executed = new Set<string>();
  const wrapped = new WeakSet<object>();
  const state = { on: false };
  for (const name of ["prepare", "query"] as const) {
    proto[name] = function (sql, ...rest) {
      const stmt = originals[name].call(this, sql, ...rest);
      if (wrapped.has(stmt)) return stmt;
      wrapped.add(stmt);
      for (const method of ["run", "get", "all", "values", "iterate"]) {
        const original = stmt[method] as (...a: unknown[]) => unknown;
        stmt[method] = (...a: unknown[]) => {
          if (state.on) executed.add(sql);
          return original.apply(stmt, a);
        };
      }
      return stmt;
    };
  }
  return {
    executed,
    async during(work: () => Promise<void> | void) {
      state.on = true;
      try {
        await work();
      } finally {
        state.on = false;
      }
    },
    restore() {
      proto.prepare = originals.prepare;
      proto.query = originals.query;
    },
  };
}

/** Plan lines that read a whole table: SCAN of anything but a subquery, a CTE, a constant row or a virtual table (FTS, json_each). */
function tableScans(plan: string[]): string[] {
  const derived = new Set(plan.flatMap((l) => /^(?:CO-ROUTINE|MATERIALIZE) (\S+)/.exec(l)?.[1] ?? []));
  return plan.filter((l) => {
    const m = /^SCAN (\S+)/.exec(l);
    if (!m) return false;
    return !(
      l.startsWith("SCAN CONSTANT ROW") ||
      m[1]!.startsWith("(subquery-") ||
      derived.has(m[1]!) ||
      l.includes("VIRTUAL TABLE")
    );
  });
}

// SQLite's planner and its sqlite_stat1; PostgreSQL plans with its own statistics (ANALYZE by autovacuum).
describe.skipIf(TEST_ENGINE === "postgres")("hot statements under misleading statistics", () => {
  test("every statement of message create, event reads, realtime lookups, conversation list, contact search and reports keeps an indexed plan", async () => {
    const rec = recordStatements();
    try {
      const w = await publicWorld();
      const { h, a } = w;
      const db = h.deps.db;
      const account = `/api/v1/accounts/${a.accountId}`;
      const token = a.adminToken;
      const team = (await h.request("POST", `${account}/teams`, { token, body: { name: "billing" } })).body
        .id as number;
      const contacts = [
        await newContact(w, { name: "Carla Moss", email: "carla@moss.io" }),
        await newContact(w, { name: "Carl Mossman", email: "carl@x.io" }),
      ];
      const conversations: number[] = [];
      for (const c of contacts) {
        const conv = await openConversation(w, c);
        conversations.push(conv.id);
        await say(w, c, conv.id, "Where is my refund?");
        await agentSays(w, conv.id, { content: "Looking into it" });
      }
      await h.request("POST", `${account}/conversations/${conversations[0]}/labels`, {
        token,
        body: { labels: ["vip"] },
      });
      await h.request("POST", `${account}/contacts/${contacts[0]!.id}/labels`, { token, body: { labels: ["vip"] } });
      await h.request("POST", `${account}/conversations/${conversations[1]}/assignments`, {
        token,
        body: { team_id: team },
      });

      plantOneRowStatistics(db);
      // The planted statistics do mislead: the events read as it was written before is a scan.
      expect(planOf(db, "SELECT * FROM events WHERE id > 5 ORDER BY id LIMIT 200")).toEqual(["SCAN events"]);

      const get = async (path: string) => expect((await h.request("GET", path, { token })).status).toBe(200);
      const search = (qs: string) => get(`${account}/contacts/search?${qs}`);
      await rec.during(async () => {
        // Message create: account API (incoming and outgoing) and public API, with the event bus draining.
        for (const [i, type] of ["incoming", "outgoing"].entries())
          expect(
            (
              await h.request("POST", `${account}/conversations/${conversations[i]}/messages`, {
                token,
                body: { content: "hello", message_type: type },
              })
            ).status,
          ).toBe(200);
        await say(w, contacts[1]!, conversations[1]!, "and again");
        await h.deps.bus.drain();
        // Realtime: the live read, replay and catch-up, and the lookups of the stream.
        expect(h.deps.repos.events.after(0, 200).length).toBeGreaterThan(3);
        expect(h.deps.repos.events.afterInAccount(a.accountId, 0, 200).length).toBeGreaterThan(3);
        const admin = db.query("SELECT pubsub_token FROM users WHERE id = ?").get(a.adminId) as {
          pubsub_token: string;
        };
        expect(h.deps.repos.realtime.userByPubsubToken(admin.pubsub_token)?.id).toBe(a.adminId);
        expect(h.deps.repos.realtime.contactInboxByPubsubToken(contacts[0]!.pubsub_token)?.account_id).toBe(
          a.accountId,
        );
        expect(h.deps.repos.realtime.accountMembers(a.accountId).size).toBe(2);
        expect(h.deps.repos.realtime.inboxMemberIds(w.inbox.id).size).toBe(1);
        // Conversation list with each filter, and its counts.
        for (const qs of [
          "",
          "status=all&assignee_type=me",
          `inbox_id=${w.inbox.id}&team_id=${team}`,
          "assignee_type=unassigned",
          "labels[]=vip",
          "q=refund",
          "page=2",
          "status=resolved&assignee_type=assigned",
        ])
          await get(`${account}/conversations?${qs}`);
        await get(`${account}/conversations/meta?status=open`);
        // One conversation: its view reads the newest messages (a list page takes them from its rows).
        for (const id of conversations) await get(`${account}/conversations/${id}`);
        // Contact search: one account owning every contact, then two accounts; trigram and prefix terms, sorted, labelled.
        for (const qs of [
          "q=moss",
          "q=ca",
          "q=%2B4930",
          "q=%2B4930&sort=name",
          "q=moss&sort=name",
          "q=moss&sort=-last_activity_at",
          "q=moss&labels[]=vip",
          "q=moss&page=2",
        ])
          await search(qs);
        const other = await makeAccount(h, "Globex");
        expect(
          (
            await h.request("POST", `/api/v1/accounts/${other.accountId}/contacts`, {
              token: other.adminToken,
              body: { name: "Moss Other", email: "o@moss.io" },
            })
          ).status,
        ).toBe(200);
        for (const qs of ["q=moss", "q=%2B4930", "q=moss&sort=email", "q=moss&labels[]=vip"]) await search(qs);
        // Contact list: unsorted (and its count), each sort both ways, labelled.
        for (const qs of [
          "",
          "page=2",
          ...["name", "created_at", "email", "phone_number", "last_activity_at"].flatMap((s) => [
            `sort=${s}`,
            `sort=-${s}`,
          ]),
          "labels[]=vip",
        ])
          await get(`${account}/contacts?${qs}`);
        // Reports.
        for (const dim of ["team", "agent", "inbox", "label"])
          await get(`/api/v2/accounts/${a.accountId}/summary_reports/${dim}?since=0&until=2000000000`);
        await get(`/api/v2/accounts/${a.accountId}/reports/summary?since=0&until=2000000000`);
      });

      const plans = [...rec.executed].map((sql) => ({ sql: sql.replace(/\s+/g, " ").trim(), plan: planOf(db, sql) }));
      expect(plans.length).toBeGreaterThan(60);
      expect(plans.filter((p) => tableScans(p.plan).length > 0)).toEqual([]);

      const planFor = (pattern: RegExp) => plans.filter((p) => pattern.test(p.sql)).map((p) => p.plan);
      // The contact list's count and its pages, unsorted and by every sort, walk an index in page order: no
      // sort of the account's contacts (a descending name page orders each run of equal names by id).
      const listed = planFor(
        /^SELECT (c\.\*|count\(\*\) AS n) FROM contacts c INDEXED BY contacts_resolved_(id|name|created|email|phone|active_first|active_last) /,
      );
      expect(listed.length).toBe(12);
      expect(listed.flat().filter((l) => l.includes("TEMP B-TREE") && !l.includes("LAST TERM"))).toEqual([]);
      // The event bus, the live hub and replay seek by id (the hub and replay up to the committed head).
      expect(planFor(/FROM events INDEXED BY events_seq WHERE id > \$after/).sort()).toEqual([
        ["SEARCH events USING INDEX events_seq (id>? AND id<?)"],
        ["SEARCH events USING INDEX events_seq (id>?)"],
      ]);
      expect(planFor(/FROM events INDEXED BY events_account WHERE account_id = \$account_id AND id > \$after/)).toEqual(
        [["SEARCH events USING INDEX events_account (account_id=? AND id>? AND id<?)"]],
      );
      expect(plans.filter((p) => /\bFROM events\b/.test(p.sql) && / id > \$after/.test(p.sql)).length).toBe(3);
      // Conversation pages come out of an index in activity order: never a sort of the account's conversations.
      const pages = plans.filter((p) =>
        /^SELECT c\.\* FROM conversations c WHERE .* ORDER BY c\.last_activity_at DESC/.test(p.sql),
      );
      expect(pages.length).toBeGreaterThanOrEqual(6);
      expect(pages.filter((p) => p.plan.some((l) => l.includes("TEMP B-TREE")))).toEqual([]);
      // A conversation's newest message is read from the end of its index (alone, or as one arm of
      // a UNION ALL: a co-routine over the same search, never a sort); a list page reads its rows'
      // newest messages by id (migration 022).
      const newest = planFor(
        /FROM messages INDEXED BY messages_conversation WHERE conversation_id >= \(\$id0\) AND conversation_id <= \(\$id0\)/,
      );
      expect(newest.length).toBeGreaterThanOrEqual(1);
      expect(new Set(planFor(/^SELECT \* FROM messages WHERE id IN \(\$id0\)/).flat())).toEqual(
        new Set(["SEARCH messages USING INTEGER PRIMARY KEY (rowid=?)"]),
      );
      expect(new Set(newest.flat().filter((l) => / messages\b/.test(l)))).toEqual(
        new Set(["SEARCH messages USING INDEX messages_conversation (conversation_id>? AND conversation_id<?)"]),
      );
      expect(newest.flat().filter((l) => l.includes("TEMP B-TREE"))).toEqual([]);
    } finally {
      rec.restore();
    }
  });
});

describe("refreshPlannerStatistics", () => {
  test("statistics taken on a tiny table are replaced once it has grown", () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-stats-"));
    const plan = (db: Db) => planOf(db, "SELECT * FROM events WHERE id > 5 ORDER BY id LIMIT 200");
    try {
      const db = openDatabase(join(dir, "s.db"));
      migrate(db);
      const insert = db.prepare(
        "INSERT INTO events (account_id, kind, actor_type, payload, created_at_ms) VALUES (1, 'contact_created', 'system', '{}', 0)",
      );
      insert.run();
      db.exec("ANALYZE");
      db.transaction(() => {
        for (let i = 0; i < 20_000; i++) insert.run();
      })();
      expect(db.query("SELECT stat FROM sqlite_stat1 WHERE idx = 'events_account'").get()).toEqual({ stat: "1 1 1" });
      expect(plan(db)).toEqual(["SCAN events"]); // the slow plan: every batch reads from the first row

      refreshPlannerStatistics(db, true);
      expect(
        (db.query("SELECT stat FROM sqlite_stat1 WHERE idx = 'events_account'").get() as { stat: string }).stat,
      ).toStartWith("20001 ");
      expect(plan(db)).toEqual(["SEARCH events USING INTEGER PRIMARY KEY (rowid>?)"]);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

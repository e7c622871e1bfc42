// Reads awaited instead of run in place (src/db/async-reads.ts). On PostgreSQL they go to the bridge
// worker's read pool, so a slow one does not hold up the process: the reports use them.
import { describe, expect, test } from "bun:test";
import { prepareRead } from "../../src/db/async-reads.ts";
import { PostgresDatabase } from "../../src/db/postgres/database.ts";
import { SyncBridge } from "../../src/db/postgres/sync-bridge.ts";
import { newConversation, send, world } from "../helpers/conversation-fixtures.ts";
import type { Harness } from "../helpers/harness.ts";
import { ALL, dataset, report } from "../helpers/report-fixtures.ts";
import { freshDatabase, TEST_ENGINE } from "../helpers/test-database.ts";
import { until } from "../helpers/until.ts";

describe("awaited reads", () => {
  test("answer SQLite's values on both engines: integers and sums as numbers, truth as 1/0", async () => {
    const db = freshDatabase();
    db.run("INSERT INTO accounts (name, created_at, updated_at) VALUES ('A', 10, 10), ('B', 20, 20)");
    const read = prepareRead(
      db,
      "SELECT count(*) AS n, sum(created_at) AS total, avg(created_at) AS average, CASE WHEN min(created_at) = 10 THEN 1 ELSE 0 END AS first FROM accounts WHERE created_at >= ?",
    );
    expect(await read.get(0)).toEqual({ n: 2, total: 30, average: 15, first: 1 });
    expect(await read.all(15)).toEqual([{ n: 1, total: 20, average: 20, first: 0 }]);
    expect(await prepareRead(db, "SELECT name FROM accounts ORDER BY id").values()).toEqual([["A"], ["B"]]);
    expect(await prepareRead(db, "SELECT name FROM accounts WHERE id = ?").get(999)).toBeNull();
  });

  test("a statement that fails as it runs rejects the promise with the engine's error", async () => {
    const db = freshDatabase();
    db.run("INSERT INTO accounts (name, created_at, updated_at) VALUES ('not json', 10, 10)");
    const read = prepareRead(db, "SELECT json_extract(name, '$.a') AS a FROM accounts");
    await expect(read.all()).rejects.toThrow(/malformed JSON|invalid input syntax for type json/);
  });

  test.skipIf(TEST_ENGINE !== "postgres")(
    "PostgreSQL: a read unanswered past the limit fails as a lost database (503), and the bridge goes on",
    async () => {
      const url = (freshDatabase() as unknown as PostgresDatabase).url;
      const bridge = new SyncBridge();
      bridge.configure({ timeoutMs: 300, onStall: () => {} });
      const db = new PostgresDatabase(url, bridge);
      const other = new Bun.SQL(url, { max: 1 });
      const session = await other.reserve();
      try {
        await session`BEGIN`;
        await session`LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE`;
        const read = prepareRead(db.asDatabase(), "SELECT count(*) AS n FROM accounts");
        const error = await read.get().then(
          () => null,
          (e: unknown) => e as { message: string; databaseUnavailable: boolean },
        );
        expect(error?.message).toStartWith("PostgreSQL did not answer a read within 0.3 s");
        expect(error?.databaseUnavailable).toBe(true);
        await session`COMMIT`;
        expect(db.prepare("SELECT 41 + 1 AS n").get()).toEqual({ n: 42 });
        expect(await read.get()).toEqual({ n: 0 });
      } finally {
        session.release();
        await other.close();
        db.close();
        bridge.terminate();
      }
    },
  );

  // SQLite runs a read in place, in this thread: it cannot wait on another session's lock while the
  // process goes on, so there is nothing to show there.
  test.skipIf(TEST_ENGINE !== "postgres")(
    "PostgreSQL: a report waiting on another session's lock does not hold up this process's other requests",
    async () => {
      const { w } = await dataset();
      await whileLocked(w.h, "reporting_events", async (lock) => {
        let answered = false;
        const pending = report(w, "summary_reports/team", ALL).then((r) => {
          answered = true;
          return r;
        });
        // The summary's statements have reached the server and wait there for the lock.
        await until(async () => (await lock.waiting()) > 0);
        const list = await w.h.request("GET", `${w.base}/conversations?status=all`, { token: w.a.adminToken });
        expect(list.status).toBe(200);
        expect(list.body.data.meta.all_count).toBe(4);
        expect(answered).toBe(false);

        await lock.release();
        const r = await pending;
        expect(r.status).toBe(200);
        expect(r.body.map((row: { id: number; resolved_conversations_count: number }) => row.id)).toEqual([
          w.teams.sales,
          w.teams.support,
          w.teams.empty,
        ]);
        expect(r.body.map((row: { resolved_conversations_count: number }) => row.resolved_conversations_count)).toEqual(
          [3, 0, 0],
        );
      });
    },
  );

  // The message list and the conversation list present their rows with reads written once for both
  // ways (src/db/reads.ts): awaited here, in place inside write paths.
  test.skipIf(TEST_ENGINE !== "postgres")(
    "PostgreSQL: the message list, conversation list and conversation waiting on a lock of messages do not hold up the process",
    async () => {
      const w = await world();
      const conversation = await newConversation(w);
      for (const content of ["first", "second"]) {
        expect((await send(w, conversation.id, { content, message_type: "incoming" })).status).toBe(200);
      }
      await whileLocked(w.h, "messages", async (lock) => {
        const token = w.a.adminToken;
        const settled: string[] = [];
        const messages = w.h.request("GET", `${w.base}/conversations/${conversation.id}/messages`, { token });
        const list = w.h.request("GET", `${w.base}/conversations?status=all`, { token });
        const show = w.h.request("GET", `${w.base}/conversations/${conversation.id}`, { token });
        for (const p of [messages, list, show]) void p.then(() => settled.push("answered"));
        await until(async () => (await lock.waiting()) >= 3);
        const contacts = await w.h.request("GET", `${w.base}/contacts`, { token });
        expect(contacts.status).toBe(200);
        expect(contacts.body.payload.map((c: { name: string }) => c.name)).toEqual(["Carla Customer"]);
        expect(settled).toEqual([]);

        await lock.release();
        const [m, l, one] = await Promise.all([messages, list, show]);
        expect(m.status).toBe(200);
        expect(m.body.payload.map((x: { content: string }) => x.content)).toEqual(["first", "second"]);
        expect(m.body.meta.contact.payload[0].name).toBe("Carla Customer");
        expect(l.status).toBe(200);
        expect(l.body.data.meta.all_count).toBe(1);
        expect(l.body.data.payload[0].last_non_activity_message.content).toBe("second");
        expect(one.status).toBe(200);
        expect(one.body.last_non_activity_message.content).toBe("second");
      });
    },
  );
});

/**
 * Another session holds `table` locked while `body` runs: `waiting()` counts the statements that
 * wait for it on the server, `release()` commits.
 */
async function whileLocked(
  h: Harness,
  table: string,
  body: (lock: { waiting(): Promise<number>; release(): Promise<void> }) => Promise<void>,
): Promise<void> {
  const other = new Bun.SQL((h.deps.db as unknown as PostgresDatabase).url, { max: 1 });
  const session = await other.reserve();
  try {
    await session`BEGIN`;
    await session.unsafe(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    await body({
      waiting: async () =>
        (await session`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = ${table}::regclass`)[0]
          .n,
      release: async () => {
        await session`COMMIT`;
      },
    });
  } finally {
    session.release();
    await other.close();
  }
}

// parley seed makes an account the real API reads as if it had been built through it.
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { runCli } from "../../src/cli.ts";
import { loadConfig } from "../../src/config.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { createLogger } from "../../src/lib/logger.ts";

describe("parley seed", () => {
  test("seeds contacts, conversations and a long thread the API serves", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "parley-seed-")), "s.db");
    const out: string[] = [];
    const code = await runCli(
      [
        "seed",
        "--db",
        path,
        "--contacts",
        "300",
        "--conversations",
        "120",
        "--messages-per-conversation",
        "3",
        "--thread-messages",
        "50",
        "--json",
      ],
      {
        out: (l) => void out.push(l),
        err: () => {},
      },
    );
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    const s = JSON.parse(out[0]!);
    expect(s).toMatchObject({
      account_id: 1,
      inbox_id: 1,
      public_conversation_id: 1,
      thread_conversation_id: 1,
      agent_ids: [2, 3, 4, 5],
      team_ids: [1, 2, 3],
    });

    const db = openDatabase(path);
    // Statistics only for the bulk-loaded tables, taken after their data; none for events, which grows.
    const stats = new Map(
      (
        db.query("SELECT tbl, idx, stat FROM sqlite_stat1").all() as { tbl: string; idx: string | null; stat: string }[]
      ).map((r) => [`${r.tbl}.${r.idx}`, r.stat]),
    );
    expect(new Set([...stats.keys()].map((k) => k.split(".")[0]))).toEqual(
      new Set(["contacts", "contact_inboxes", "conversations", "conversation_tallies", "messages", "reporting_events"]),
    );
    expect(stats.get("messages.messages_conversation")).toStartWith(`${120 * 3 + 50} `);
    expect(stats.get("conversations.conversations_account_display")).toStartWith("120 ");
    migrate(db);
    const app = createApp(createDeps({ db, config: loadConfig({ db: path }, {}), logger: createLogger("silent") }));
    const get = async (p: string) => {
      const r = await app.handle(
        new Request(`http://localhost/api/v1/accounts/${s.account_id}${p}`, {
          headers: { api_access_token: s.api_access_token },
        }),
      );
      return { status: r.status, body: (await r.json()) as any };
    };
    const all = await get("/conversations?status=all");
    expect(all.status).toBe(200);
    expect(all.body.data.meta.all_count).toBe(120);
    const thread = await get(`/conversations/1/messages`);
    expect(thread.body.payload).toHaveLength(20);
    const older = await get(`/conversations/1/messages?before=${s.thread_middle_message_id}`);
    expect(older.body.payload.map((m: { id: number }) => m.id)).toEqual(
      Array.from({ length: 20 }, (_, i) => s.thread_middle_message_id - 20 + i),
    );
    // Contacts are searchable: the FTS index was filled for the bulk-loaded rows.
    const search = await get("/contacts/search?q=smith");
    expect(search.status).toBe(200);
    expect(search.body.meta.count).toBe(
      (
        db
          .query(
            "SELECT COUNT(*) AS n FROM contacts WHERE name LIKE '%smith%' AND (email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL)",
          )
          .get() as { n: number }
      ).n,
    );
    expect(search.body.meta.count).toBeGreaterThan(0);
    // Reporting events were seeded, so the team report has figures.
    const now = Math.floor(Date.now() / 1000);
    const report = await app.handle(
      new Request(
        `http://localhost/api/v2/accounts/${s.account_id}/summary_reports/team?since=${now - 400 * 86400}&until=${now + 60}`,
        { headers: { api_access_token: s.api_access_token } },
      ),
    );
    const rows = (await report.json()) as {
      id: number;
      conversations_count: number;
      resolved_conversations_count: number;
    }[];
    expect(report.status).toBe(200);
    expect(rows.map((r) => r.id)).toEqual(s.team_ids);
    const resolvedWithTeam = (
      db.query("SELECT COUNT(*) AS n FROM conversations WHERE status = 'resolved' AND team_id IS NOT NULL").get() as {
        n: number;
      }
    ).n;
    expect(rows.reduce((sum, r) => sum + r.resolved_conversations_count, 0)).toBe(resolvedWithTeam);
    expect(resolvedWithTeam).toBeGreaterThan(0);
    // A conversation created through the API continues the display ids.
    const contact = (
      db.query("SELECT id FROM contacts WHERE email IS NOT NULL ORDER BY id DESC LIMIT 1").get() as { id: number }
    ).id;
    const created = await app.handle(
      new Request(`http://localhost/api/v1/accounts/${s.account_id}/conversations`, {
        method: "POST",
        headers: { api_access_token: s.api_access_token, "content-type": "application/json" },
        body: JSON.stringify({ inbox_id: s.inbox_id, contact_id: contact }),
      }),
    );
    expect(created.status).toBe(200);
    expect(((await created.json()) as { id: number }).id).toBe(121);
    // Newly inserted contacts are still indexed by the restored trigger.
    const c = await app.handle(
      new Request(`http://localhost/api/v1/accounts/${s.account_id}/contacts`, {
        method: "POST",
        headers: { api_access_token: s.api_access_token, "content-type": "application/json" },
        body: JSON.stringify({ name: "Zelda Quokka", email: "zelda@quokka.test" }),
      }),
    );
    expect(c.status).toBe(200);
    expect((await get("/contacts/search?q=quokka")).body.meta.count).toBe(1);
    db.close();
  });
});

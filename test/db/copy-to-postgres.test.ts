// A whole installation, made through the real API, copied into PostgreSQL: every table arrives with
// its ids, the identities continue after them, the trigger-kept tables are copied and not counted
// twice, a changed row is caught by the check, and a second copy into the same database is refused.
// Needs PostgreSQL (skipped, with the reason, without it).
import { describe, expect, test } from "bun:test";
import { POSTGRES_MIGRATIONS } from "../../src/db/migrations-postgres.ts";
import { CopyRefusedError, copyToPostgres, verifyCopy } from "../../src/db/copy-to-postgres.ts";
import { installation } from "../helpers/installation.ts";
import { postgresForFile } from "../helpers/postgres.ts";

const { server, skip } = await postgresForFile("copy to PostgreSQL");

describe.skipIf(skip !== null)("copy into PostgreSQL", () => {
  test("every table, ids kept, identities advanced, checked; a second copy is refused", async () => {
    const w = await installation();
    const db = w.h.deps.db;
    const sql = new Bun.SQL(await server!.createDatabase("copy_whole"));
    try {
      // Two rows a batch: every table is read and written in several pages, by key range or by offset.
      const report = await copyToPostgres(db, sql, 2);
      const count = (t: string) => (db.query(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
      // A new database: the copy applied every PostgreSQL migration before the rows went in.
      expect(report.migrationsApplied).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
      const copied = new Map(report.tables.map((t) => [t.name, t.rows]));
      for (const t of ["accounts", "contacts", "conversations", "messages", "conversation_labels", "events"])
        expect([t, copied.get(t)]).toEqual([t, count(t)]);
      // This round's tables, keyed by a user, a notification or an identity: one row each, copied.
      for (const t of ["password_resets", "notification_mail", "notification_subscriptions", "notification_pushes"])
        expect([t, copied.get(t)]).toEqual([t, 1]);
      const [signed] = await sql`SELECT message_signature FROM users WHERE message_signature IS NOT NULL`;
      expect(signed.message_signature).toBe("Ann\nAcme");
      expect(count("messages")).toBeGreaterThanOrEqual(4);
      expect(count("notifications")).toBeGreaterThanOrEqual(1);
      expect(count("webhook_deliveries")).toBeGreaterThanOrEqual(1);
      // Parents before children: a conversation's contact and inbox are copied before it.
      const at = (t: string) => report.tables.findIndex((r) => r.name === t);
      expect(at("contacts")).toBeLessThan(at("conversations"));
      expect(at("conversations")).toBeLessThan(at("messages"));
      // The trigger-kept tables match the source, not the source plus what triggers would have added.
      const tallies = (await sql`SELECT sum(n)::int AS n FROM conversation_tallies`)[0].n;
      expect(tallies).toBe((db.query("SELECT sum(n) AS n FROM conversation_tallies").get() as { n: number }).n);
      const [row] = await sql`SELECT label_list, unread_incoming FROM conversations ORDER BY id DESC LIMIT 1`;
      expect(row.label_list).toBe('["vip","billing"]');
      // Identities continue after the copied ids (labels: a table no trigger writes to).
      const maxLabel = (db.query("SELECT max(id) AS m FROM labels").get() as { m: number }).m;
      const [added] = await sql`INSERT INTO labels (account_id, title, created_at, updated_at)
                                VALUES (${w.a.accountId}, 'new', 1, 1) RETURNING id`;
      expect(Number(added.id)).toBe(maxLabel + 1);
      // The check sees a difference, and names the table.
      await expect(verifyCopy(db, sql, 2)).rejects.toThrow("labels differs");
      await sql`DELETE FROM labels WHERE id = ${added.id}`;
      await verifyCopy(db, sql);
      await sql`UPDATE canned_responses SET content = 'Hello!'`;
      await expect(verifyCopy(db, sql)).rejects.toThrow("canned_responses differs");
      // Only into an empty database.
      await expect(copyToPostgres(db, sql)).rejects.toBeInstanceOf(CopyRefusedError);
    } finally {
      await sql.close();
    }
  });
});

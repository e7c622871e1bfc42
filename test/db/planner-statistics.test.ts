// Stale planner statistics (a seeded database analysed while `events` held one row) made the event
// bus read each batch by scanning the table from its first row; refreshPlannerStatistics, run at
// server start and hourly, re-analyses tables whose size moved a lot.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase, refreshPlannerStatistics } from "../../src/db/open.ts";

const plan = (db: ReturnType<typeof openDatabase>) =>
  (db.query("EXPLAIN QUERY PLAN SELECT * FROM events WHERE id > 5 ORDER BY id LIMIT 200").all() as { detail: string }[]).map((r) => r.detail);

describe("refreshPlannerStatistics", () => {
  test("statistics taken on a tiny table are replaced once it has grown", () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-stats-"));
    try {
      const db = openDatabase(join(dir, "s.db"));
      migrate(db);
      const insert = db.prepare("INSERT INTO events (account_id, kind, actor_type, payload, created_at_ms) VALUES (1, 'contact_created', 'system', '{}', 0)");
      insert.run();
      db.exec("ANALYZE");
      db.transaction(() => {
        for (let i = 0; i < 20_000; i++) insert.run();
      })();
      expect(db.query("SELECT stat FROM sqlite_stat1 WHERE idx = 'events_account'").get()).toEqual({ stat: "1 1 1" });
      expect(plan(db)).toEqual(["SCAN events"]); // the slow plan: every batch reads from the first row

      refreshPlannerStatistics(db, true);
      expect((db.query("SELECT stat FROM sqlite_stat1 WHERE idx = 'events_account'").get() as { stat: string }).stat).toStartWith("20001 ");
      expect(plan(db)).toEqual(["SEARCH events USING INTEGER PRIMARY KEY (rowid>?)"]);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

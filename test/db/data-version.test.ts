// The read caches (summaries, filter counts: src/domain/versioned-cache.ts) are versioned by this
// process's commits and by the database's data version, which must move whenever another connection
// commits: a CLI command on SQLite, another server process on PostgreSQL.
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { PostgresDatabase } from "../../src/db/postgres/database.ts";
import { SyncBridge } from "../../src/db/postgres/sync-bridge.ts";
import { ReportsRepo } from "../../src/db/reports.repo.ts";
import { freshPostgresUrl, TEST_ENGINE } from "../helpers/test-database.ts";

const insertAccount = (i: number) => `INSERT INTO accounts (name, created_at, updated_at) VALUES ('Other ${i}', 0, 0)`;

test.skipIf(TEST_ENGINE !== "sqlite")(
  "SQLite: data_version moves when another connection commits, not for this connection's reads",
  () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-version-"));
    try {
      const server = openDatabase(join(dir, "v.db"));
      migrate(server);
      const cli = openDatabase(join(dir, "v.db"));
      const reports = new ReportsRepo(server);
      const before = reports.dataVersion();
      server.query("SELECT count(*) FROM conversations").get();
      expect(reports.dataVersion()).toBe(before);
      cli.exec(insertAccount(1));
      expect(reports.dataVersion()).not.toBe(before);
      cli.close();
      server.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test.skipIf(TEST_ENGINE !== "postgres")(
  "PostgreSQL: the version moves at once for every commit of another session",
  () => {
    const url = freshPostgresUrl();
    // A bridge of its own is a connection of its own: another server process, as far as PostgreSQL sees.
    const otherBridge = new SyncBridge();
    const server = new PostgresDatabase(url).asDatabase();
    const other = new PostgresDatabase(url, otherBridge).asDatabase();
    try {
      const reports = new ReportsRepo(server);
      // (Whether a read leaves it alone is not asserted: any write on the cluster moves the WAL —
      // another test's database, autovacuum — and a needless recount is all that costs.)
      const first = reports.dataVersion();
      // Several commits within a second: the statistics' commit counter (the version used before)
      // showed the first of these and then stood still for the rest.
      const seen = [first];
      for (let i = 1; i <= 5; i++) {
        other.exec(insertAccount(i));
        const now = reports.dataVersion();
        expect(seen).not.toContain(now);
        seen.push(now);
      }
    } finally {
      other.close();
      server.close();
      otherBridge.terminate();
    }
  },
);

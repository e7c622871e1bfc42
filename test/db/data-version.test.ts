// The summary reports' cache (src/domain/reports.service.ts) is versioned by this process's commits
// and SQLite's data_version, which moves when another connection (a CLI command) commits.
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { ReportsRepo } from "../../src/db/reports.repo.ts";

test("data_version moves when another connection commits, not for this connection's reads", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-version-"));
  try {
    const server = openDatabase(join(dir, "v.db"));
    migrate(server);
    const cli = openDatabase(join(dir, "v.db"));
    const reports = new ReportsRepo(server);
    const before = reports.dataVersion();
    server.query("SELECT count(*) FROM conversations").get();
    expect(reports.dataVersion()).toBe(before);
    cli.exec("INSERT INTO accounts (name, created_at, updated_at) VALUES ('Other', 0, 0)");
    expect(reports.dataVersion()).not.toBe(before);
    cli.close();
    server.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

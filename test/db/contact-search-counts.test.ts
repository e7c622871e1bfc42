// Kept contact-search counts (src/db/contacts-search.ts) follow changes made by another connection
// (a CLI command or a second process): the version they are tagged with is bumped by triggers.
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ContactSearch } from "../../src/db/contacts-search.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";

test("a contact added or renamed by another connection changes the next count; a rolled-back change does not", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-search-"));
  try {
    const server = openDatabase(join(dir, "s.db"));
    migrate(server);
    server.exec("INSERT INTO accounts (name, created_at, updated_at) VALUES ('Acme', 0, 0)");
    const add = (db: typeof server, name: string, email: string) =>
      db
        .query("INSERT INTO contacts (account_id, name, email, created_at, updated_at) VALUES (1, ?, ?, 0, 0)")
        .run(name, email);
    add(server, "Rita Moss", "rita@x.io");
    const search = new ContactSearch(server);
    const count = async () =>
      (await search.search({ accountId: 1, sort: null, labels: null, limit: 15, offset: 0, term: "moss" })).count;
    expect(await count()).toBe(1);
    expect(await count()).toBe(1);

    const cli = openDatabase(join(dir, "s.db"));
    add(cli, "Moss Lee", "lee@x.io");
    expect(await count()).toBe(2);
    cli.exec("UPDATE contacts SET name = 'Lee' WHERE email = 'lee@x.io'");
    expect(await count()).toBe(1);
    const rolledBack = cli.transaction(() => {
      add(cli, "Mossy", "m@x.io");
      throw new Error("undo");
    });
    expect(() => rolledBack()).toThrow("undo");
    expect(await count()).toBe(1);
    cli.close();
    server.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseTooNewError, LATEST_VERSION, migrate, schemaVersion } from "../../src/db/migrate.ts";
import { MIGRATIONS } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";

describe("migrations", () => {
  test("a fresh database is migrated to the latest version, and again is a no-op", () => {
    const db = openDatabase(":memory:");
    expect(migrate(db)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    expect(migrate(db)).toEqual([]);
    const tables = (
      db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
    ).map((r) => r.name);
    expect(tables).toContain("accounts");
    expect(tables).toContain("events");
    expect(tables).toContain("access_tokens");
  });

  test("versions are consecutive from 1", () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  test("refuses a database newer than the binary, and leaves it untouched", () => {
    const db = openDatabase(":memory:");
    db.exec(`PRAGMA user_version = ${LATEST_VERSION + 1}`);
    expect(() => migrate(db)).toThrow(DatabaseTooNewError);
    expect(schemaVersion(db)).toBe(LATEST_VERSION + 1);
    expect(db.query("SELECT COUNT(*) AS n FROM sqlite_master").get()).toEqual({ n: 0 });
  });

  test("a failing migration rolls back whole and keeps the previous version", () => {
    const db = openDatabase(":memory:");
    const broken = [
      ...MIGRATIONS,
      {
        version: MIGRATIONS.length + 1,
        name: "broken",
        sql: "CREATE TABLE half (id INTEGER); INSERT INTO nowhere VALUES (1);",
      },
    ];
    expect(() => migrate(db, broken)).toThrow();
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    expect(db.query("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeNull();
  });

  test("a file database opens in WAL with synchronous NORMAL and foreign keys on", () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-"));
    const db = openDatabase(join(dir, "x.db"));
    expect(db.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(db.query("PRAGMA synchronous").get()).toEqual({ synchronous: 1 });
    expect(db.query("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
    expect(db.query("PRAGMA busy_timeout").get()).toEqual({ timeout: 5000 });
    db.close();
  });
});

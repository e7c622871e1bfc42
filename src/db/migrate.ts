// Schema versions live in PRAGMA user_version. Each migration runs in its own transaction so a
// failure leaves the database at the previous version, never half-migrated.
import type { Database } from "bun:sqlite";
import { LATEST_VERSION, MIGRATIONS, type Migration } from "./migrations.ts";

export class DatabaseTooNewError extends Error {
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(`database schema version ${found} is newer than this binary supports (${supported}); upgrade Parley`);
  }
}

export function schemaVersion(db: Database): number {
  const row = db.query("PRAGMA user_version").get() as { user_version: number };
  return row.user_version;
}

/** Applies pending migrations; returns the versions applied. Refuses a database newer than the binary. */
export function migrate(db: Database, migrations: Migration[] = MIGRATIONS): number[] {
  const latest = migrations.length ? migrations[migrations.length - 1]!.version : 0;
  const current = schemaVersion(db);
  if (current > latest) throw new DatabaseTooNewError(current, latest);
  const applied: number[] = [];
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.exec(`PRAGMA user_version = ${m.version}`);
    }).immediate();
    applied.push(m.version);
  }
  return applied;
}

export { LATEST_VERSION };

// The real app in process on an existing (seeded) database, for the measurement scripts that drive
// it with app.handle (requests.ts, write-floor.ts). Group commit as the server runs it: writes share
// a turn's commit, and reads its snapshot (src/db/tx.ts), so a request's statements cost here what
// they cost in the server.
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { createLogger } from "../../src/lib/logger.ts";

export function inProcessApp(file: string) {
  const db = openDatabase(file);
  const t = performance.now();
  migrate(db);
  const migrateMs = performance.now() - t;
  const deps = createDeps({
    db,
    config: loadConfig({ db: file }, {}),
    logger: createLogger("silent"),
    groupCommit: true,
  });
  return { db, deps, app: createApp(deps), migrateMs };
}

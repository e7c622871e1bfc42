// The SQLite file `parley copy` reads: opened read only (a copy never migrates it), inside one read
// transaction — in WAL mode that is one snapshot, so rows written meanwhile are neither half in the
// copy nor able to make the check differ. A file that is missing, not SQLite, not Parley's, or at
// another schema version is refused with a sentence the command line prints as it is.
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { DatabaseTooNewError } from "./migrate.ts";
import { LATEST_VERSION } from "./migrations.ts";

export class CopySourceError extends Error {}

export function openCopySource(path: string): Database {
  if (!existsSync(path)) throw new CopySourceError(`--from ${path} does not exist`);
  const db = new Database(path, { readonly: true, strict: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.exec("BEGIN");
    const version = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
    if (version === 0 || !db.query("SELECT 1 FROM sqlite_master WHERE name = 'accounts'").get())
      throw new CopySourceError(`${path} is not a Parley database`);
    if (version > LATEST_VERSION) throw new DatabaseTooNewError(version, LATEST_VERSION);
    if (version < LATEST_VERSION)
      throw new CopySourceError(
        `${path} has schema version ${version}, older than this binary's (${LATEST_VERSION}): run "parley migrate --db ${path}" first`,
      );
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === "SQLITE_NOTADB")
      throw new CopySourceError(`${path} is not a SQLite database`);
    throw error;
  }
}

// Opening PostgreSQL for `parley serve`: the migrations (under their own advisory lock, so processes
// starting together take turns), then the server's database on the synchronous bridge, holding the
// one-server lock for as long as its connection lives.
import { migratePostgres } from "../migrate-postgres.ts";
import { connectPostgres } from "../postgres-connect.ts";
import { PostgresDatabase } from "./database.ts";

// One server per database, as on SQLite (src/db/server-lock.ts): the event listeners, the webhook
// deliverer and the mail poller claim their work without row locks yet, so a second process would
// send every webhook twice. A session advisory lock ends with the connection, kill -9 included.
const SERVER_LOCK_KEY = 0x5041524c4559; // "PARLEY"

export class PostgresLockedError extends Error {}

export async function openPostgresServer(url: string): Promise<PostgresDatabase> {
  const sql = await connectPostgres(url);
  try {
    await migratePostgres(sql);
  } finally {
    await sql.close();
  }
  const db = new PostgresDatabase(url);
  const held = db.prepare("SELECT pg_try_advisory_lock(CAST(? AS BIGINT)) AS held").get(SERVER_LOCK_KEY) as {
    held: number;
  };
  if (held.held !== 1) {
    db.close();
    throw new PostgresLockedError(
      "another Parley server is running on this PostgreSQL database; stop it first " +
        "(one server per database until the jobs share their work: docs/deployment.md)",
    );
  }
  return db;
}

// Opening PostgreSQL for `parley serve`: the migrations (under their own advisory lock, so processes
// starting together take turns), then the server's database on the synchronous bridge. Any number of
// servers may share the database: writers take turns (database.ts), and the background work runs in
// the process holding the lease (background-lease.ts).
import { migratePostgres } from "../migrate-postgres.ts";
import { connectPostgres } from "../postgres-connect.ts";
import { PostgresDatabase } from "./database.ts";

export async function openPostgresServer(url: string): Promise<PostgresDatabase> {
  const sql = await connectPostgres(url);
  try {
    await migratePostgres(sql);
  } finally {
    await sql.close();
  }
  return new PostgresDatabase(url);
}

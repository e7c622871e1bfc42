// A PostgreSQL connection that has answered once, so a wrong host, password or database fails here,
// where the caller can say so in one line, rather than at the first real statement.
import type { SQL } from "bun";

export async function connectPostgres(url: string): Promise<SQL> {
  const sql = new Bun.SQL(url, { connectionTimeout: 10 });
  try {
    await sql`SELECT 1`;
  } catch (error) {
    await sql.close();
    throw error;
  }
  return sql;
}

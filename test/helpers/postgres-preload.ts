// `npm run test:postgres` loads this first: one throwaway PostgreSQL for the whole run
// (postgres.ts), with a migrated template database each harness copies (test-database.ts).
import { afterAll } from "bun:test";
import { migratePostgres } from "../../src/db/migrate-postgres.ts";
import { startPostgres } from "./postgres.ts";
import { TEMPLATE_DATABASE } from "./test-database.ts";

process.env.PARLEY_TEST_ENGINE = "postgres";
const pg = await startPostgres();
if ("skip" in pg) {
  console.error(`npm run test:postgres: ${pg.skip}`);
  process.exit(1);
}
const template = new Bun.SQL(await pg.createDatabase(TEMPLATE_DATABASE));
await migratePostgres(template);
await template.close();
process.env.PARLEY_TEST_POSTGRES_URL = pg.url;
afterAll(() => pg.stop());

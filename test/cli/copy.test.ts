// `parley copy` and `parley migrate --db postgres://…` through the real CLI entry: an installation
// made through the API, saved as a file, copied into a throwaway PostgreSQL and counted on both
// sides; the refusals (a non-empty target, a source that is missing, foreign or behind), and what
// `serve` and `backup` need or refuse on PostgreSQL (serving it: test/e2e/serve-postgres.test.ts). The PostgreSQL tests skip, with the reason,
// where PostgreSQL is not installed.
import { Database } from "bun:sqlite";
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { copyDatabaseTo } from "../../src/db/maintenance.ts";
import { migrate } from "../../src/db/migrate.ts";
import { LATEST_VERSION, MIGRATIONS } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";
import { capture } from "../helpers/cli.ts";
import { freePort } from "../helpers/free-port.ts";
import { installation } from "../helpers/installation.ts";
import { postgresForFile } from "../helpers/postgres.ts";

const dir = mkdtempSync(join(tmpdir(), "parley-copy-"));
const NEEDS_KEY =
  "--db (or PARLEY_DB) is a PostgreSQL URL: set PARLEY_SECRET_KEY too (the key that encrypts email inbox passwords, the same for every process: any long random string, e.g. `openssl rand -base64 32`)";

async function cli(...argv: string[]) {
  const c = capture();
  const code = await runCli(argv, c.io);
  return { code, out: c.out, err: c.err };
}

/** A Parley database file at the given schema version, with no rows. */
function emptyParley(name: string, version = LATEST_VERSION): string {
  const path = join(dir, name);
  const db = openDatabase(path);
  migrate(
    db,
    MIGRATIONS.filter((m) => m.version <= version),
  );
  db.close();
  return path;
}

describe("parley copy refuses before it connects", () => {
  // Port 1 on loopback: were any of these to connect first, they would fail with exit 1 instead.
  const nowhere = "postgres://parley@127.0.0.1:1/parley";

  test("--to must be a PostgreSQL URL", async () => {
    const source = emptyParley("url.db");
    for (const to of ["./copy.db", "mysql://u:p@host/db", "postgres://[bad"]) {
      const r = await cli("copy", "--from", source, "--to", to);
      expect([to, r.code]).toEqual([to, 2]);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toStartWith("parley copy: --to ");
      expect(r.err[0]).toContain("(postgres://user:password@host:5432/database)");
    }
  });

  test("a missing, foreign or older source is refused, and the older one is not migrated", async () => {
    expect(await cli("copy", "--from", join(dir, "none.db"), "--to", nowhere)).toEqual({
      code: 2,
      out: [],
      err: [`parley copy: --from ${join(dir, "none.db")} does not exist`],
    });
    const text = join(dir, "notes.txt");
    writeFileSync(text, "not a database, ".repeat(100));
    expect((await cli("copy", "--from", text, "--to", nowhere)).err).toEqual([
      `parley copy: ${text} is not a SQLite database`,
    ]);
    const other = join(dir, "other.db");
    new Database(other).exec("CREATE TABLE t (x)");
    expect((await cli("copy", "--from", other, "--to", nowhere)).err).toEqual([
      `parley copy: ${other} is not a Parley database`,
    ]);
    const old = emptyParley("old.db", 3);
    expect(await cli("copy", "--from", old, "--to", nowhere)).toEqual({
      code: 2,
      out: [],
      err: [
        `parley copy: ${old} has schema version 3, older than this binary's (${LATEST_VERSION}): run "parley migrate --db ${old}" first`,
      ],
    });
    const check = new Database(old, { readonly: true });
    expect(check.query("PRAGMA user_version").get()).toEqual({ user_version: 3 });
    check.close();
  });

  test("a server that does not answer is one line, without the password, exit 1", async () => {
    const port = await freePort();
    const r = await cli(
      "copy",
      "--from",
      emptyParley("lonely.db"),
      "--to",
      `postgres://ann:s3cret@127.0.0.1:${port}/db`,
    );
    expect(r.code).toBe(1);
    expect(r.err).toEqual([
      `parley copy: cannot connect to PostgreSQL at ann@127.0.0.1:${port}/db: Failed to connect (ERR_POSTGRES_CONNECTION_REFUSED)`,
    ]);
  });
});

describe("parley serve on PostgreSQL", () => {
  test("a postgres:// --db or PARLEY_DB needs PARLEY_SECRET_KEY (no file beside the database to keep it in)", async () => {
    expect(await cli("serve", "--db", "postgres://ann@127.0.0.1/parley", "--port", "0")).toEqual({
      code: 2,
      out: [],
      err: [`parley serve: ${NEEDS_KEY}`],
    });
    expect(() => loadConfig({}, { PARLEY_DB: "postgresql://ann@db.internal/parley" })).toThrow(
      new ConfigError(NEEDS_KEY),
    );
    const config = loadConfig({}, { PARLEY_DB: "postgresql://ann@db.internal/parley", PARLEY_SECRET_KEY: "k" });
    expect([config.db, config.mail.secretKey, config.mail.keyFile, config.files.dir]).toEqual([
      "postgresql://ann@db.internal/parley",
      "k",
      null,
      "./parley-files", // not a directory named after the URL
    ]);
  });

  test("backup points to PostgreSQL's own tools and writes nothing", async () => {
    const to = join(dir, "pg-backup.db");
    expect(await cli("backup", "--db", "postgres://ann@127.0.0.1/parley", "--to", to)).toEqual({
      code: 2,
      out: [],
      err: [
        "parley backup: --db is a PostgreSQL URL: back PostgreSQL up with pg_dump; parley backup copies a SQLite file",
      ],
    });
    expect(existsSync(to)).toBe(false);
  });
});

const { server, skip } = await postgresForFile("parley copy");

describe.skipIf(skip !== null)("parley copy and migrate on PostgreSQL", () => {
  const file = join(dir, "parley.db");
  /** The same installation, written to while it is copied. */
  const live = join(dir, "live.db");
  let source: Database;
  /** Rows per table in the SQLite file. */
  const sourceCount = (t: string) => (source.query(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n;
  /** Rows per table in a PostgreSQL database, every table of its schema. */
  async function targetCounts(url: string): Promise<Record<string, number>> {
    const sql = new Bun.SQL(url);
    try {
      const tables = await sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`;
      const counts: Record<string, number> = {};
      for (const { table_name } of tables)
        counts[table_name] = (await sql.unsafe(`SELECT count(*)::int AS n FROM "${table_name}"`))[0].n;
      return counts;
    } finally {
      await sql.close();
    }
  }

  beforeAll(async () => {
    const w = await installation();
    for (const path of [file, live]) {
      copyDatabaseTo(w.h.deps.db, path);
      openDatabase(path).close(); // in WAL mode, as the server leaves it
    }
    source = new Database(file, { readonly: true });
  });

  test("--json: one line, every table's count equal to the source's and to the target's", async () => {
    const url = await server!.createDatabase("copy_json");
    const r = await cli("copy", "--from", file, "--to", url, "--json");
    expect([r.code, r.err]).toEqual([0, []]);
    expect(r.out).toHaveLength(1);
    const report = JSON.parse(r.out[0]!);
    expect(report).toMatchObject({
      schema_version: LATEST_VERSION,
      migrations_applied: MIGRATIONS.map((m) => m.version),
      files_copied: false,
    });
    expect(report.tables).toMatchObject({ accounts: 1, contacts: 2, conversations: 1, teams: 1, webhooks: 1 });
    expect(report.tables.messages).toBeGreaterThanOrEqual(3);
    const copied = await targetCounts(url);
    for (const [t, n] of Object.entries(report.tables as Record<string, number>))
      expect([t, n, copied[t]]).toEqual([t, sourceCount(t), sourceCount(t)]);
    expect(report.rows).toBe(Object.values(report.tables as Record<string, number>).reduce((a, b) => a + b, 0));
    // Everything Parley keeps is there: only the SQLite-only search tables are left out.
    expect(Object.keys(report.tables).length).toBe(Object.keys(copied).length - 1); // parley_schema
  });

  test("text: the migrations, a line a table, and that attachment files stay where they are", async () => {
    const url = await server!.createDatabase("copy_text");
    const r = await cli("copy", "--from", file, "--to", url);
    expect([r.code, r.err]).toEqual([0, []]);
    expect(r.out[0]).toBe(
      `PostgreSQL applied migrations ${MIGRATIONS.map((m) => m.version).join(", ")}; schema version ${LATEST_VERSION}`,
    );
    expect(r.out[1]).toMatch(
      /^copied \d+ rows in \d+ tables to postgres@127\.0\.0\.1:\d+\/copy_text; counts and checksums match:$/,
    );
    expect(r.out).toContain(`  ${"accounts".padEnd(34)} 1`);
    expect(r.out).toContain(`  ${"messages".padEnd(34)} ${sourceCount("messages")}`);
    expect(r.out.at(-1)).toBe(
      `attachment files are not copied: the rows refer to them where they are (${file}.files); keep them for the server that will run on PostgreSQL`,
    );
  });

  test("--storage names where the source's attachment files are", async () => {
    const url = await server!.createDatabase("copy_storage");
    const r = await cli("copy", "--from", file, "--to", url, "--storage", "/srv/parley/files");
    expect([r.code, r.err]).toEqual([0, []]);
    expect(r.out.at(-1)).toBe(
      "attachment files are not copied: the rows refer to them where they are (/srv/parley/files); keep them for the server that will run on PostgreSQL",
    );
  });

  test("text with NUL characters (older rows, mail) is copied without them, said per column, and checked", async () => {
    const withNul = join(dir, "nul.db");
    copyDatabaseTo(source, withNul);
    const db = openDatabase(withNul);
    const message = (db.query("SELECT min(id) AS id FROM messages").get() as { id: number }).id;
    db.run("UPDATE messages SET content = ? WHERE id = ?", ["Hello\u0000 there\u0000", message]);
    db.run("UPDATE contacts SET name = ? WHERE id = (SELECT min(id) FROM contacts)", ["Ca\u0000rla"]);
    db.close();
    const url = await server!.createDatabase("copy_nul");
    const r = await cli("copy", "--from", withNul, "--to", url, "--json");
    expect([r.code, r.err]).toEqual([0, []]);
    expect(JSON.parse(r.out[0]!).nul_characters_removed).toEqual({ "contacts.name": 1, "messages.content": 1 });
    const sql = new Bun.SQL(url);
    try {
      expect((await sql`SELECT content FROM messages WHERE id = ${message}`)[0].content).toBe("Hello there");
      expect((await sql`SELECT name FROM contacts ORDER BY id LIMIT 1`)[0].name).toBe("Carla");
    } finally {
      await sql.close();
    }
    const text = await cli("copy", "--from", withNul, "--to", await server!.createDatabase("copy_nul_text"));
    expect(text.out).toContain(
      "NUL characters, which PostgreSQL text cannot hold, were left out of 2 values: contacts.name (1), messages.content (1)",
    );
    // A clean source reports none.
    const clean = await cli("copy", "--from", file, "--to", await server!.createDatabase("copy_no_nul"), "--json");
    expect(JSON.parse(clean.out[0]!).nul_characters_removed).toEqual({});
  });

  test("a second copy onto the same target is refused with exit 2 and changes nothing", async () => {
    const url = await server!.createDatabase("copy_twice");
    expect((await cli("copy", "--from", file, "--to", url, "--json")).code).toBe(0);
    const before = await targetCounts(url);
    expect(before.accounts).toBe(1);
    const again = await cli("copy", "--from", file, "--to", url, "--json");
    expect(again.code).toBe(2);
    expect(again.out).toEqual([]);
    expect(again.err).toHaveLength(1);
    expect(again.err[0]).toMatch(
      /^parley copy: the target is not empty: \w+ has [1-9]\d* rows \(copy only into a new database\)$/,
    );
    expect(await targetCounts(url)).toEqual(before);
  });

  test("the copy is one snapshot: a row written while it runs is neither copied nor a failed check", async () => {
    const url = await server!.createDatabase("copy_live");
    // runCli opens the source and reads its version before its first await: the snapshot is taken.
    const running = cli("copy", "--from", live, "--to", url, "--json");
    const writer = openDatabase(live);
    writer.run("INSERT INTO labels (account_id, title, created_at, updated_at) VALUES (1, 'late', 1, 1)");
    const labels = (writer.query("SELECT count(*) AS n FROM labels").get() as { n: number }).n;
    writer.close();
    const r = await running;
    expect([r.code, r.err]).toEqual([0, []]);
    expect(JSON.parse(r.out[0]!).tables.labels).toBe(labels - 1);
    expect((await targetCounts(url)).labels).toBe(labels - 1);
  });

  test("migrate --db postgres:// applies every migration once; the second run applies nothing", async () => {
    const url = await server!.createDatabase("migrate_twice");
    expect(await cli("migrate", "--db", url)).toEqual({
      code: 0,
      out: [`applied migrations ${MIGRATIONS.map((m) => m.version).join(", ")}; schema version ${LATEST_VERSION}`],
      err: [],
    });
    expect(await cli("migrate", "--db", url)).toEqual({
      code: 0,
      out: [`schema is up to date (version ${LATEST_VERSION})`],
      err: [],
    });
    expect(Object.keys(await targetCounts(url))).toContain("conversations");
  });

  test("a database that does not exist on the server is one line, exit 1", async () => {
    const url = server!.url.replace(/\/postgres$/, "/no_such_db");
    const r = await cli("migrate", "--db", url);
    expect(r.code).toBe(1);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toStartWith(
      `parley migrate: cannot connect to PostgreSQL at postgres@${new URL(url).host}/no_such_db: `,
    );
    expect(r.err[0]).toContain('"no_such_db" does not exist');
  });
});

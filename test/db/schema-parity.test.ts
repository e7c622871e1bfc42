// SQLite's and PostgreSQL's migrations leave the same schema: the same tables, columns (name, kind,
// NOT NULL, default), indexes and triggers, table by table; and the triggers do the same thing (the same
// writes on both engines leave the same rows in the tables the triggers keep). What differs by design is listed here and only
// here: contact search is FTS5 tables kept by triggers on SQLite and trigram indexes on PostgreSQL,
// and PostgreSQL keeps its schema version in a table (SQLite in PRAGMA user_version).
// Needs PostgreSQL (Debian's package; .ci/run installs it): skipped, with the reason, without it.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { migratePostgres, postgresSchemaVersion } from "../../src/db/migrate-postgres.ts";
import { LATEST_VERSION, MIGRATIONS } from "../../src/db/migrations.ts";
import { POSTGRES_MIGRATIONS } from "../../src/db/migrations-postgres.ts";
import { postgresForFile } from "../helpers/postgres.ts";

const SQLITE_ONLY_TABLE = /^contacts(_identifier)?_search(_data|_idx|_content|_docsize|_config)?$/;
const SQLITE_ONLY_TRIGGERS = new Set(["contacts_search_insert", "contacts_search_update", "contacts_search_delete"]);
const POSTGRES_ONLY_INDEXES = new Set([
  "contacts_search_name",
  "contacts_search_email",
  "contacts_search_phone",
  "contacts_search_company",
  "contacts_search_identifier",
  // The prefix arms of a short search, in SQLite's comparisons (migration 032): SQLite's own indexes serve them there.
  "contacts_prefix_name",
  "contacts_prefix_email",
  "contacts_prefix_phone",
  "contacts_prefix_identifier",
  "contacts_prefix_company",
]);
const POSTGRES_ONLY_TABLES = new Set(["parley_schema"]);

interface Schema {
  /** table → "column kind null|not null", in column order. */
  columns: Record<string, string[]>;
  /** "table.index" */
  indexes: string[];
  /** "table.trigger" */
  triggers: string[];
}

const KINDS: Record<string, string> = {
  integer: "integer",
  bigint: "integer",
  text: "text",
  citext: "text",
  real: "real",
  "double precision": "real",
  blob: "bytes",
  bytea: "bytes",
};
const kind = (type: string) => KINDS[type.toLowerCase()] ?? `unknown:${type}`;
/** PostgreSQL writes a default with its cast ('open'::text); SQLite as written ('open'). */
const defaultOf = (d: string | null) => (d === null ? "none" : d.replace(/::[a-z ]+$/, ""));

function sqliteSchema(): Schema {
  const db = new Database(":memory:");
  migrate(db);
  const tables = (
    db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
      name: string;
    }[]
  )
    .map((t) => t.name)
    .filter((name) => !SQLITE_ONLY_TABLE.test(name));
  const columns: Record<string, string[]> = {};
  for (const table of tables) {
    const info = db.query(`PRAGMA table_info(${table})`).all() as {
      name: string;
      type: string;
      notnull: number;
      pk: number;
      dflt_value: string | null;
    }[];
    columns[table] = info.map(
      (c) => `${c.name} ${kind(c.type)} ${c.notnull || c.pk ? "not null" : "null"} default ${c.dflt_value ?? "none"}`,
    );
  }
  const named = (type: string) =>
    (
      db.query(`SELECT tbl_name AS tbl, name FROM sqlite_master WHERE type = ? AND sql IS NOT NULL`).all(type) as {
        tbl: string;
        name: string;
      }[]
    ).map((r) => `${r.tbl}.${r.name}`);
  const triggers = named("trigger").filter((t) => !SQLITE_ONLY_TRIGGERS.has(t.split(".")[1]!));
  const indexes = named("index");
  db.close();
  return { columns, indexes: indexes.sort(), triggers: triggers.sort() };
}

async function postgresSchema(sql: Bun.SQL): Promise<Schema> {
  const cols = (await sql.unsafe(
    `SELECT table_name, column_name, CASE WHEN data_type = 'USER-DEFINED' THEN udt_name ELSE data_type END AS type,
            is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  )) as { table_name: string; column_name: string; type: string; is_nullable: string; column_default: string | null }[];
  const columns: Record<string, string[]> = {};
  for (const c of cols) {
    if (POSTGRES_ONLY_TABLES.has(c.table_name)) continue;
    (columns[c.table_name] ??= []).push(
      `${c.column_name} ${kind(c.type)} ${c.is_nullable === "NO" ? "not null" : "null"} default ${defaultOf(c.column_default)}`,
    );
  }
  // Indexes made by CREATE INDEX: not those behind a primary key or UNIQUE constraint (SQLite's autoindexes).
  const indexes = (await sql.unsafe(
    `SELECT t.relname AS tbl, i.relname AS name FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
  )) as { tbl: string; name: string }[];
  const triggers = (await sql.unsafe(
    "SELECT DISTINCT event_object_table AS tbl, trigger_name AS name FROM information_schema.triggers WHERE trigger_schema = 'public'",
  )) as { tbl: string; name: string }[];
  return {
    columns,
    indexes: indexes
      .filter((i) => !POSTGRES_ONLY_INDEXES.has(i.name))
      .map((i) => `${i.tbl}.${i.name}`)
      .sort(),
    triggers: triggers.map((t) => `${t.tbl}.${t.name}`).sort(),
  };
}

const { server, skip } = await postgresForFile("schema parity");

describe.skipIf(skip !== null)("SQLite and PostgreSQL schemas", () => {
  test("both engines have the same migrations, by number and name", () => {
    const list = (ms: typeof MIGRATIONS) => ms.map((m) => `${m.version} ${m.name}`);
    expect(list(POSTGRES_MIGRATIONS)).toEqual(list(MIGRATIONS));
  });

  test("migrated from empty, they have the same tables, columns, indexes and triggers", async () => {
    const sql = new Bun.SQL(await server!.createDatabase("parity"));
    try {
      expect(await migratePostgres(sql)).toEqual(Array.from({ length: LATEST_VERSION }, (_, i) => i + 1));
      expect(await postgresSchemaVersion(sql)).toBe(LATEST_VERSION);
      expect(await migratePostgres(sql)).toEqual([]);
      const lite = sqliteSchema();
      const post = await postgresSchema(sql);
      expect(Object.keys(post.columns).sort()).toEqual(Object.keys(lite.columns).sort());
      for (const table of Object.keys(lite.columns))
        expect([table, post.columns[table]]).toEqual([table, lite.columns[table]]);
      expect(post.indexes).toEqual(lite.indexes);
      expect(post.triggers).toEqual(lite.triggers);
      // The engine-only objects are really there (a rename on one side must show up here).
      const pgIndexes = (await sql.unsafe("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")) as {
        indexname: string;
      }[];
      expect(
        pgIndexes
          .map((r) => r.indexname)
          .filter((n) => POSTGRES_ONLY_INDEXES.has(n))
          .sort(),
      ).toEqual([...POSTGRES_ONLY_INDEXES].sort());
    } finally {
      await sql.close();
    }
  });

  test("the triggers keep tallies, label rows and the search version alike on both engines", async () => {
    // Plain SQL both dialects read the same way; ids given, so rows compare one to one.
    const writes = [
      "INSERT INTO accounts (id, name, created_at, updated_at) VALUES (1, 'Acme', 100, 100)",
      "INSERT INTO users (id, name, email, pubsub_token, created_at, updated_at) VALUES (7, 'Ann', 'ann@acme.test', 'p7', 100, 100)",
      "INSERT INTO inboxes (id, account_id, name, channel_type, created_at, updated_at) VALUES (3, 1, 'API', 'api', 100, 100)",
      "INSERT INTO inboxes (id, account_id, name, channel_type, created_at, updated_at) VALUES (4, 1, 'Mail', 'email', 100, 100)",
      "INSERT INTO teams (id, account_id, name, created_at, updated_at) VALUES (5, 1, 'sales', 100, 100)",
      "INSERT INTO contacts (id, account_id, name, email, created_at, updated_at) VALUES (11, 1, 'Carla', 'carla@acme.test', 100, 100)",
      "INSERT INTO contact_inboxes (id, contact_id, inbox_id, source_id, pubsub_token, created_at, updated_at) VALUES (21, 11, 3, 's1', 'c1', 100, 100)",
      `INSERT INTO conversations (id, account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, status, last_activity_at, created_at, updated_at_ms)
         VALUES (31, 1, 1, 'u31', 3, 11, 21, 'open', 200, 200, 200000)`,
      `INSERT INTO conversations (id, account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, status, last_activity_at, created_at, updated_at_ms)
         VALUES (32, 1, 2, 'u32', 3, 11, 21, 'pending', 210, 210, 210000)`,
      "INSERT INTO conversation_labels (id, conversation_id, account_id, title) VALUES (41, 31, 1, 'vip')",
      "INSERT INTO conversation_labels (id, conversation_id, account_id, title) VALUES (42, 31, 1, 'billing')",
      "INSERT INTO conversation_labels (id, conversation_id, account_id, title) VALUES (43, 32, 1, 'vip')",
      "UPDATE conversations SET status = 'resolved', assignee_id = 7 WHERE id = 31",
      "UPDATE conversations SET last_activity_at = 300 WHERE id = 32",
      "UPDATE conversations SET team_id = 5, inbox_id = 4 WHERE id = 32",
      "UPDATE contacts SET name = 'Carla B' WHERE id = 11",
      "UPDATE contacts SET last_activity_at = 400 WHERE id = 11",
      "INSERT INTO contacts (id, account_id, name, created_at, updated_at) VALUES (12, 1, 'Dan', 100, 100)",
      "DELETE FROM contacts WHERE id = 12",
      `INSERT INTO messages (id, account_id, inbox_id, conversation_id, message_type, content, created_at, updated_at)
         VALUES (51, 1, 4, 32, 0, 'hi', 310, 310)`,
      `INSERT INTO messages (id, account_id, inbox_id, conversation_id, message_type, content, created_at, updated_at)
         VALUES (52, 1, 4, 32, 1, 'hello', 311, 311)`,
      `INSERT INTO messages (id, account_id, inbox_id, conversation_id, message_type, content, created_at, updated_at)
         VALUES (53, 1, 4, 32, 0, 'still there?', 320, 320)`,
      "UPDATE conversations SET agent_last_seen_at = 315 WHERE id = 32",
      `INSERT INTO messages (id, account_id, inbox_id, conversation_id, message_type, content, created_at, updated_at)
         VALUES (54, 1, 4, 32, 0, 'hello?', 330, 330)`,
      "INSERT INTO conversation_labels (id, conversation_id, account_id, title) VALUES (44, 32, 1, 'billing')",
      "UPDATE conversation_labels SET title = 'gold' WHERE title = 'vip'",
      "DELETE FROM messages WHERE id = 54",
      "DELETE FROM conversations WHERE id = 31",
    ];
    const reads = [
      "SELECT account_id, inbox_id, team_id, status, assignee_id, n FROM conversation_tallies ORDER BY inbox_id, team_id, status, assignee_id",
      "SELECT id, conversation_id, title, status, assignee_id, inbox_id, last_activity_at FROM conversation_labels ORDER BY id",
      "SELECT n FROM contact_search_version",
      "SELECT id, label_list, unread_incoming, last_message_id FROM conversations ORDER BY id",
    ];
    const text = (rows: Record<string, unknown>[]) =>
      rows.map((r) =>
        Object.entries(r)
          .map(([k, v]) => `${k}=${v === null ? "null" : String(v)}`)
          .join(" "),
      );

    const lite = openDatabase(":memory:"); // as the server opens it: foreign keys on (the cascades matter here)
    migrate(lite);
    for (const w of writes) lite.run(w);
    const expected = reads.map((r) => text(lite.query(r).all() as Record<string, unknown>[]));
    lite.close();

    const sql = new Bun.SQL(await server!.createDatabase("triggers"));
    try {
      await migratePostgres(sql);
      for (const w of writes) await sql.unsafe(w);
      const got: string[][] = [];
      for (const r of reads) got.push(text([...((await sql.unsafe(r)) as Record<string, unknown>[])]));
      expect(got).toEqual(expected);
      // And what they should be: 32 moved to inbox 4, team 5 with its label row; 31's rows are gone.
      expect(expected[1]).toEqual([
        "id=43 conversation_id=32 title=gold status=pending assignee_id=null inbox_id=4 last_activity_at=300",
        "id=44 conversation_id=32 title=billing status=pending assignee_id=null inbox_id=4 last_activity_at=300",
      ]);
      // Labels in the order added, renamed in place; one incoming message after the agent looked (53;
      // 54 was removed); the newest message left is 53.
      expect(expected[3]).toEqual(['id=32 label_list=["gold","billing"] unread_incoming=1 last_message_id=53']);
      expect(expected[0]!.filter((row) => !row.endsWith("n=0"))).toEqual([
        "account_id=1 inbox_id=4 team_id=5 status=pending assignee_id=0 n=1",
      ]);
      // Bumped by Carla's insert and rename, Dan's insert and delete; not by her activity time.
      expect(expected[2]).toEqual(["n=4"]);
    } finally {
      await sql.close();
    }
  });
});

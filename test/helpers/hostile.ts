// Hostile input for the route-wide sweep (test/http/hostile-input.test.ts): the routes as the app's
// own OpenAPI document lists them, the values to throw at their path ids and body fields, a check
// that an answer is the error envelope, and a log of the rows a request really changed.
import type { Database } from "bun:sqlite";
import { isPostgres } from "../../src/db/postgres/database.ts";
import { userTables } from "./test-database.ts";

export interface Route {
  method: string;
  /** The OpenAPI template, e.g. /api/v1/accounts/{account_id}/labels/{id}. */
  path: string;
  params: string[];
  /** Declared top-level body properties; null when the route takes no body. */
  bodyProps: string[] | null;
  multipart: boolean;
}

interface OpenApiOperation {
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

/** Every operation of the app's OpenAPI document. */
export function routesOf(doc: { paths: Record<string, Record<string, OpenApiOperation>> }): Route[] {
  const routes: Route[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const content = op.requestBody?.content;
      const schema = content ? Object.values(content)[0]?.schema : undefined;
      routes.push({
        method: method.toUpperCase(),
        path,
        params: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
        bodyProps: content ? Object.keys(schema?.properties ?? {}) : null,
        multipart: Boolean(content?.["multipart/form-data"]),
      });
    }
  }
  return routes;
}

/** Path ids that name nothing, as they go into the URL. */
export const HOSTILE_IDS: [string, string][] = [
  ["0", "0"],
  ["-1", "-1"],
  ["huge", "99999999999999999999"],
  ["1.5", "1.5"],
  ["abc", "abc"],
  ["nul", "%00"],
  ["2000 chars", "9".repeat(2000)],
];

function nested(depth: number): unknown {
  let v: unknown = { leaf: 1 };
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

/** Values put in place of one body field. */
export const HOSTILE_VALUES: [string, unknown][] = [
  ["null", null],
  ["[]", []],
  ["{}", {}],
  ["NUL", "\u0000"],
  ["20k string", "x".repeat(20_000)],
  ["1e308", 1e308],
  ["-1", -1],
  ["true", true],
  ["200 deep", nested(200)],
  ["5000 items", Array.from({ length: 5000 }, (_, i) => i + 1)],
];

export interface RawBody {
  name: string;
  body?: string;
  contentType?: string;
}

/** Whole bodies that are not an object of fields. */
export const HOSTILE_BODIES: RawBody[] = [
  { name: "body []", body: "[]" },
  { name: 'body "x"', body: '"x"' },
  { name: "body 123", body: "123" },
  { name: "body null", body: "null" },
  { name: "malformed JSON", body: '{"name": "x"' },
  { name: "empty body", body: "" },
];

/** Multipart bodies a route that accepts multipart/form-data must refuse cleanly. */
export const HOSTILE_MULTIPART: RawBody[] = [
  { name: "multipart without boundary", contentType: "multipart/form-data", body: "--x\r\n\r\n" },
  {
    name: "multipart, wrong boundary",
    contentType: "multipart/form-data; boundary=abc",
    body: '--zzz\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--zzz--\r\n',
  },
  {
    name: "multipart, unterminated",
    contentType: "multipart/form-data; boundary=abc",
    body: '--abc\r\nContent-Disposition: form-data; name="name"\r\n\r\nx',
  },
];

/** Why a 4xx body is not the error envelope, or null when it is. */
export function envelopeProblem(body: unknown): string | null {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return "not a JSON object";
  const b = body as Record<string, unknown>;
  if (typeof b.description !== "string") return "no description string";
  if (typeof b.error !== "string") return "no error string";
  if (!Array.isArray(b.errors)) return "no errors array";
  for (const item of b.errors) {
    const i = item as Record<string, unknown> | null;
    if (!i || typeof i.field !== "string" || typeof i.message !== "string" || typeof i.code !== "string")
      return `bad error item ${JSON.stringify(item)}`;
  }
  return null;
}

/**
 * A log of committed-or-pending row changes, kept by temporary triggers on every ordinary table.
 * Unlike total_changes(), a write undone by its savepoint (a request that failed half-way) leaves
 * no row, so the log shows what a request really left behind.
 */
export async function changeLog(db: Database): Promise<{ size(): number; tablesSince(n: number): string[] }> {
  const tables = userTables(db);
  const engine: unknown = db;
  if (isPostgres(engine)) {
    // No temporary triggers on PostgreSQL; the harness's database is thrown away after the test anyway.
    // On a connection of its own, awaited: CREATE TRIGGER waits for every transaction that has
    // touched the table, and one may be an awaited body of the listeners (a cursor's save), which
    // needs this thread to go on. In place, through the bridge, the two would wait for each other.
    const ddl = `CREATE TABLE hostile_changes (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, tbl TEXT NOT NULL);
      CREATE FUNCTION hostile_log() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO hostile_changes (tbl) VALUES (TG_TABLE_NAME); RETURN NULL; END $$;
      ${tables.map((t) => `CREATE TRIGGER hostile_log AFTER INSERT OR UPDATE OR DELETE ON "${t.name}" FOR EACH ROW EXECUTE FUNCTION hostile_log();`).join("\n")}`;
    const own = new Bun.SQL(engine.url, { max: 1 });
    try {
      await own.unsafe(ddl).simple();
    } finally {
      await own.close();
    }
  } else {
    db.run("CREATE TEMP TABLE hostile_changes (id INTEGER PRIMARY KEY, tbl TEXT NOT NULL)");
    for (const { name } of tables)
      for (const op of ["INSERT", "UPDATE", "DELETE"])
        db.run(
          `CREATE TEMP TRIGGER hostile_${name}_${op} AFTER ${op} ON main."${name}" ` +
            `BEGIN INSERT INTO hostile_changes (tbl) VALUES ('${name}'); END`,
        );
  }
  const size = db.query("SELECT COALESCE(MAX(id), 0) AS n FROM hostile_changes");
  const since = db.query("SELECT DISTINCT tbl FROM hostile_changes WHERE id > ?");
  return {
    size: () => (size.get() as { n: number }).n,
    tablesSince: (n) => (since.all(n) as { tbl: string }[]).map((r) => r.tbl),
  };
}

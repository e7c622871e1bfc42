// The mechanical SQLite → PostgreSQL rewrites (src/db/postgres/translate.ts), one case each; that
// PostgreSQL accepts every repository statement so translated is test/db/statements-compile.test.ts
// under `npm run test:postgres`.
import { describe, expect, test } from "bun:test";
import { toPostgres } from "../../src/db/postgres/translate.ts";

const text = (sql: string, tables: string[] = []) => toPostgres(sql, new Set(tables)).text;

describe("toPostgres", () => {
  test("named parameters become $1… once per name, in order of first use; strings are left alone", () => {
    expect(toPostgres("SELECT * FROM t WHERE a = $a AND b = $b OR a = $a AND c = '$x ?'")).toEqual({
      text: "SELECT * FROM t WHERE a = $1 AND b = $2 OR a = $1 AND c = '$x ?'",
      names: ["a", "b"],
      positional: 0,
    });
  });

  test("positional and numbered parameters", () => {
    expect(toPostgres("SELECT ? , ?, ?")).toEqual({ text: "SELECT $1 , $2, $3", names: null, positional: 3 });
    expect(toPostgres("SELECT ?2, ?1")).toEqual({ text: "SELECT $2, $1", names: null, positional: 2 });
    expect(() => toPostgres("SELECT $a, ?")).toThrow("binds both by name and by position");
  });

  test("INSERT OR IGNORE, before RETURNING when there is one", () => {
    expect(text("INSERT OR IGNORE INTO l (a) VALUES (?)")).toBe("INSERT INTO l (a) VALUES ($1) ON CONFLICT DO NOTHING");
    expect(text("INSERT OR IGNORE INTO l (a) VALUES (?) RETURNING a")).toBe(
      "INSERT INTO l (a) VALUES ($1) ON CONFLICT DO NOTHING RETURNING a",
    );
  });

  test("an INSERT into a table with an id returns it (lastInsertRowid); others are left alone", () => {
    expect(text("INSERT INTO contacts (name) VALUES ($name)", ["contacts"])).toBe(
      "INSERT INTO contacts (name) VALUES ($1) RETURNING id",
    );
    expect(text("INSERT INTO account_users (a) VALUES ($a)", ["contacts"])).toBe(
      "INSERT INTO account_users (a) VALUES ($1)",
    );
    expect(text("INSERT INTO contacts (name) VALUES ($name) RETURNING *", ["contacts"])).toBe(
      "INSERT INTO contacts (name) VALUES ($1) RETURNING *",
    );
  });

  test("planner orders and NOCASE are dropped; LIKE ignores case; CROSS JOIN … ON is a join", () => {
    expect(text("SELECT * FROM m INDEXED BY m_conv WHERE x LIKE ? ORDER BY name COLLATE NOCASE")).toBe(
      "SELECT * FROM m WHERE x ILIKE $1 ORDER BY name",
    );
    expect(text("SELECT * FROM l CROSS JOIN conversations v ON v.id = l.c")).toBe(
      "SELECT * FROM l JOIN conversations v ON v.id = l.c",
    );
  });

  test("functions: IFNULL, instr, two-argument max/min (not the aggregates), REAL", () => {
    expect(text("SELECT IFNULL(a, 0), instr(b, ?), max(a, min(b, 2)), max(c), CAST(d AS REAL) FROM t")).toBe(
      "SELECT COALESCE(a, 0), strpos(b, $1), GREATEST(a, LEAST(b, 2)), max(c), CAST(d AS DOUBLE PRECISION) FROM t",
    );
  });

  test("sums of comparisons count truth; sums of columns stay", () => {
    expect(text("SELECT sum(a = ?), SUM(b IS NULL), sum(n) FROM t")).toBe(
      "SELECT sum((a = $1)::int), SUM((b IS NULL)::int), sum(n) FROM t",
    );
  });

  test("JSON: a literal path's text, and IN over json_each (ids cast to BIGINT)", () => {
    expect(text("SELECT * FROM i WHERE json_extract(i.attrs, '$.website_token') = $t")).toBe(
      "SELECT * FROM i WHERE ((i.attrs)::jsonb ->> 'website_token') = $1",
    );
    expect(
      text(
        "SELECT 1 WHERE team_id IN (SELECT value FROM json_each($ids)) AND title IN (SELECT value FROM json_each($t))",
      ),
    ).toBe(
      "SELECT 1 WHERE team_id IN (SELECT value::bigint FROM json_array_elements_text(($1)::text::json)) AND title IN (SELECT value FROM json_array_elements_text(($2)::text::json))",
    );
  });
});

// The repositories' statements are prepared when they first run (src/db/lazy-statements.ts), so a
// mistake in a rarely used one no longer stops the server at start. This walks every repository
// and prepares every statement it holds, on a migrated database: each must compile.
import { describe, expect, test } from "bun:test";
import { LazyStatement } from "../../src/db/lazy-statements.ts";
import { PostgresStatement } from "../../src/db/postgres/statement.ts";
import { createHarness } from "../helpers/harness.ts";

/**
 * Every statement reachable from the repositories (fields, maps, nested helper objects, the two-way
 * statements of src/db/reads.ts): prepared lazily, or — the awaited reads on PostgreSQL
 * (src/db/async-reads.ts) — made for the read pool.
 */
function statementsIn(root: unknown): (LazyStatement | PostgresStatement)[] {
  const found: (LazyStatement | PostgresStatement)[] = [];
  const seen = new Set<unknown>();
  const walk = (v: unknown, depth: number) => {
    if (!v || typeof v !== "object" || seen.has(v) || depth > 5) return;
    seen.add(v);
    if (v instanceof LazyStatement || v instanceof PostgresStatement) return void found.push(v);
    const children = v instanceof Map ? [...v.values()] : Array.isArray(v) ? v : Object.values(v);
    for (const child of children) walk(child, depth + 1);
  };
  walk(root, 0);
  return found;
}

describe("repository statements", () => {
  test("every statement the repositories hold compiles against the migrated schema", () => {
    const h = createHarness();
    const statements = statementsIn(h.deps.repos);
    expect(statements.length).toBeGreaterThan(250);
    const failures: string[] = [];
    for (const s of statements) {
      try {
        s.check();
      } catch (error) {
        failures.push(String(error));
      }
    }
    expect(failures).toEqual([]);
  });
});

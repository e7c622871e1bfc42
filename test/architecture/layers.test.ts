// The house rules of layering, checked on every file of src/ (docs/architecture.md explains them):
//   db     imports nothing of domain, events, http, realtime, files, jobs
//   lib    imports nothing of the layers above it (only lib and shared)
//   files  imports only lib and shared
//   shared imports only shared (it runs in the browser too)
//   web    imports only web and shared; widget only widget and shared
//   http   routes reach data through services, never `d.repos` or a database handle
//   SQL    text appears only in src/db (and migrations/)
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { relative, resolve, dirname } from "node:path";
import { sourceFiles, src } from "./source-files.ts";

const all = sourceFiles(src).map((path) => ({ path, rel: relative(src, path), text: readFileSync(path, "utf8") }));
const layerOf = (rel: string) => (rel.includes("/") ? rel.split("/")[0]! : "root");

/** Every module a file imports (static and dynamic, type-only included), as paths relative to src/. */
function importsOf(f: { path: string; text: string }): string[] {
  const specs = [...f.text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g)].map((m) => m[1]!);
  return specs.filter((s) => s.startsWith(".")).map((s) => relative(src, resolve(dirname(f.path), s)));
}

const ALLOWED: Record<string, readonly string[]> = {
  db: ["db", "lib", "shared"],
  lib: ["lib", "shared"],
  files: ["files", "lib", "shared"],
  shared: ["shared"],
  web: ["web", "shared"],
  widget: ["widget", "shared"],
};

describe("layers", () => {
  test("each layer imports only what it may", () => {
    const broken: string[] = [];
    for (const f of all) {
      const allowed = ALLOWED[layerOf(f.rel)];
      if (!allowed) continue;
      for (const target of importsOf(f)) {
        if (target.startsWith("..")) continue; // package.json, migrations: outside src
        const layer = layerOf(target);
        if (!allowed.includes(layer)) broken.push(`${f.rel} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  test("routes reach data through services: no repos, no database handle", () => {
    const broken = all
      .filter((f) => f.rel.startsWith("http/"))
      .flatMap((f) => [...f.text.matchAll(/\bd\.(repos|db)\b[.\w]*/g)].map((m) => `${f.rel}: ${m[0]}`));
    expect(broken).toEqual([]);
  });

  test("SQL is written only in src/db", () => {
    const sql =
      /["'`]\s*(SELECT\s|INSERT\s+(OR\s+\w+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|PRAGMA\s|VACUUM\b|CREATE\s+(TABLE|INDEX)\s|ALTER\s+TABLE\s|DROP\s+TABLE\s)/;
    const broken = all.filter((f) => !f.rel.startsWith("db/") && sql.test(f.text)).map((f) => f.rel);
    expect(broken).toEqual([]);
  });
});

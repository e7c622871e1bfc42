// Every schema the routes declare is built at start-up. Elysia's t.Integer compiles a checker there
// and then; src/http/schemas.ts's Integer defers it to the first value (issue 16: start-up time).
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const src = resolve(import.meta.dir, "../../src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

test("schemas use Integer from src/http/schemas.ts, not t.Integer", () => {
  const eager = files(src)
    .filter((path) => /\bt\.Integer\(/.test(readFileSync(path, "utf8")))
    .map((path) => relative(src, path));
  expect(eager).toEqual([]);
});

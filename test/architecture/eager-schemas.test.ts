// Every schema the routes declare is built at start-up. Elysia's t.Integer compiles a checker there
// and then; src/http/schemas.ts's Integer defers it to the first value (issue 16: start-up time).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { sourceFiles, src } from "./source-files.ts";

test("schemas use Integer from src/http/schemas.ts, not t.Integer", () => {
  const eager = sourceFiles(src)
    .filter((path) => /\bt\.Integer\(/.test(readFileSync(path, "utf8")))
    .map((path) => relative(src, path));
  expect(eager).toEqual([]);
});

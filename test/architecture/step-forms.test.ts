// A write written as steps (`*…Steps`, a generator: src/db/reads.ts) does nothing until a driver
// runs it. Called and dropped, it writes nothing, and no type check says so (a generator is a
// value like any other). So every call of a `…Steps` method must hand its generator on: to
// `yield*` or `nested(…)` inside another step form, to `readNow(…)` for an in-place form, or as the
// value of a `return` or an arrow (writeTx.steps' body).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { sourceFiles, src } from "./source-files.ts";

const CALL = /(?<![\w*])(?:[\w$]+\.)*\w+Steps\(/g;
const HANDED_ON = /(?:\byield\*|\bnested\(|\breadNow\(|\breturn|=>)\s*$/;

/** "file:line code" for each call of a …Steps method whose generator is not handed on. */
function droppedStepCalls(code: string, file: string): string[] {
  const dropped: string[] = [];
  for (const m of code.matchAll(CALL)) {
    const before = code.slice(0, m.index);
    const line = before.split("\n").length;
    // A declaration (`*fooSteps(`, `function* fooSteps(`) is not a call.
    if (/(?:\*\s*|function\*?\s+)$/.test(before)) continue;
    if (!HANDED_ON.test(before)) dropped.push(`${file}:${line} ${m[0]}`);
  }
  return dropped;
}

test("every …Steps call hands its generator on (yield*, nested, readNow, return, an arrow)", () => {
  const dropped = sourceFiles(src).flatMap((path) => droppedStepCalls(readFileSync(path, "utf8"), relative(src, path)));
  expect(dropped).toEqual([]);
});

test("the scan finds a dropped step form and passes the ways one is handed on", () => {
  const code = [
    "  *touchSteps(row) {",
    "    yield* nested(this.d.conversations.touchSteps(row));",
    "    yield* nested(",
    "      this.d.messages.insertSteps({",
    "    return readNow(this.recordSteps(e));",
    "    yield* this.d.conversations.saveSteps(next);",
    "    const body = () => this.createSteps(a);",
    "    this.d.events.changedSteps(a, row, next);",
  ].join("\n");
  expect(droppedStepCalls(code, "x.ts")).toEqual(["x.ts:8 this.d.events.changedSteps("]);
});

// Services await their writes (`await writeTx(body)`, src/db/tx.ts). The in-place form,
// `writeTx.now(body)`, is only for code that runs inside another write's body, which cannot await
// yet: such a method says so in its name (`…Now`, or `…InTx` for a helper that only ever runs in a
// caller's transaction). So a write path cannot slip back to the synchronous form unnoticed
// (issue 18).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { sourceFiles, src } from "./source-files.ts";

/** "file#method" for every `writeTx.now(` in src/, the method being the nearest declaration above it. */
function inPlaceWrites(): string[] {
  const found: string[] = [];
  for (const path of sourceFiles(src)) {
    const rel = relative(src, path);
    if (rel === "db/tx.ts") continue; // where both forms are made
    let method = "(top level)";
    for (const line of readFileSync(path, "utf8").split("\n")) {
      const declared = /^ {2}(?:(?:private|protected|public|static|async) )*([A-Za-z_]\w*)(?:<[^>]*>)?\(/.exec(line);
      if (declared) method = declared[1]!;
      else if (/^(?:export )?(?:async )?function (\w+)/.test(line)) method = /function (\w+)/.exec(line)![1]!;
      if (line.includes("writeTx.now(")) found.push(`${rel}#${method}`);
    }
  }
  return found;
}

test("writeTx.now is used only by in-place forms (…Now, …InTx)", () => {
  const found = inPlaceWrites();
  // The scan itself works: the in-place forms are found by their names.
  expect(found).toContain("domain/conversation-create.ts#createNow");
  expect(found.filter((at) => !/#\w+(Now|InTx)$/.test(at))).toEqual([]);
});

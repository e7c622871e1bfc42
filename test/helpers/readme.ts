// Code the README prints between `<!-- NAME:start … -->` and `<!-- NAME:end -->` markers, written to
// a temporary module and imported, so tests run exactly what readers copy.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function readmeModule(name: string): Promise<Record<string, unknown>> {
  const readme = readFileSync(join(import.meta.dir, "../../README.md"), "utf8");
  const code = new RegExp(`<!-- ${name}:start[^>]*-->\\s*\`\`\`js\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${name}:end -->`).exec(
    readme,
  )?.[1];
  if (!code) throw new Error(`README has no ${name} block`);
  const file = join(mkdtempSync(join(tmpdir(), `parley-${name}-`)), "module.mjs");
  writeFileSync(file, code);
  return import(file);
}

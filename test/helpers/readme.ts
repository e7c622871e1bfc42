// Code the docs print (README.md and docs/*.md) between `<!-- NAME:start … -->` and `<!-- NAME:end -->`
// markers, written to a temporary module and imported, so tests run exactly what readers copy.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function readmeModule(name: string): Promise<Record<string, unknown>> {
  const root = join(import.meta.dir, "../..");
  const docs = readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join(root, "docs", f));
  const readme = [join(root, "README.md"), ...docs].map((f) => readFileSync(f, "utf8")).join("\n");
  const code = new RegExp(`<!-- ${name}:start[^>]*-->\\s*\`\`\`js\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${name}:end -->`).exec(
    readme,
  )?.[1];
  if (!code) throw new Error(`no ${name} block in README.md or docs/`);
  const file = join(mkdtempSync(join(tmpdir(), `parley-${name}-`)), "module.mjs");
  writeFileSync(file, code);
  return import(file);
}

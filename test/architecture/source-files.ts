// What the architecture tests read: every TypeScript file under a folder, and where src/ is.
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export const src = resolve(import.meta.dir, "../../src");

/** Every .ts and .tsx file under `dir`, at any depth. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

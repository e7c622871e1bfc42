// Tests that run the compiled binary build it exactly as `npm run build` does: the flags are read
// from package.json's build script, so a test never checks a binary built differently from the
// one we ship (bytecode, ESM, no autoloaded .env/bunfig).
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };

const ROOT = join(import.meta.dir, "../..");

/** Builds the binary to `outfile`; throws with bun's message when the build fails. */
export function buildBinary(outfile: string): void {
  const words = pkg.scripts.build.split(/\s+/);
  if (words[0] !== "bun" || words[1] !== "build") throw new Error(`unexpected build script: ${pkg.scripts.build}`);
  const args = words.slice(2);
  const at = args.indexOf("--outfile");
  args.splice(at, 2, "--outfile", outfile);
  const build = Bun.spawnSync([process.execPath, "build", ...args], { cwd: ROOT, stderr: "pipe", stdout: "pipe" });
  if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`);
}

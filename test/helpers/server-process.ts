// `bun src/main.ts serve` as its own process on a free port, for tests that kill it (kill -9,
// crash hooks) and start it again on the same database.
import { join } from "node:path";

const root = join(import.meta.dir, "../..");

export interface ServerProcess {
  proc: Bun.Subprocess;
  base: string;
  /** The first run's API token, when this start printed one. */
  token: string | null;
  exited: Promise<number>;
}

/** Starts the server on `db`; resolves once it listens. Every process started is pushed to `procs` (to kill after the tests). */
export async function serveProcess(
  db: string,
  env: Record<string, string>,
  procs: Bun.Subprocess[],
): Promise<ServerProcess> {
  const proc = Bun.spawn([process.execPath, "src/main.ts", "serve", "--db", db, "--port", "0"], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, PARLEY_LOG_LEVEL: "error", ...env },
  });
  procs.push(proc);
  let out = "";
  const reader = proc.stdout.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited before listening: ${out}`);
    out += new TextDecoder().decode(value);
    const listening = /listening on (http:\/\/\S+)/.exec(out);
    if (listening)
      return { proc, base: listening[1]!, token: /keep it\): (\S+)/.exec(out)?.[1] ?? null, exited: proc.exited };
  }
}

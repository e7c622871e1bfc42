// Start-up of the compiled binary to its first /health 200, and its idle RSS.
//   npm run build && bun test/bench/startup.ts build/parley 9            fresh database each start
//   npm run build && bun test/bench/startup.ts build/parley 9 --restart  restarts on one existing database
// A fresh database also migrates and creates the first account (with an argon2id password hash,
// ~170 ms on purpose); a restart is the common case on a server.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, rssMb } from "./load.ts";

const bin = process.argv[2] ?? "build/parley";
const runs = Number(process.argv[3] ?? 7);
const restart = process.argv.includes("--restart");
const dir = mkdtempSync(join(tmpdir(), "parley-startup-"));
const times: number[] = [];
let idle = 0;
// In restart mode, one extra first start creates the database and is not counted.
for (let i = restart ? -1 : 0; i < runs; i++) {
  const port = await freePort();
  const t0 = performance.now();
  const db = join(dir, restart ? "shared.db" : `s${i}.db`);
  const p = Bun.spawn([bin, "serve", "--db", db, "--port", String(port)], { stdout: "ignore", stderr: "ignore" });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    await Bun.sleep(1);
  }
  if (i >= 0) times.push(performance.now() - t0);
  if (i === runs - 1) {
    await Bun.sleep(2000);
    idle = await rssMb(p.pid);
  }
  p.kill("SIGTERM");
  await p.exited;
}
times.sort((a, b) => a - b);
const what = restart ? "restart on an existing database" : "start on a fresh database";
console.log(
  `${what} → first /health: median ${times[runs >> 1]!.toFixed(1)} ms (min ${times[0]!.toFixed(1)}, max ${times[runs - 1]!.toFixed(1)}, n=${runs}); idle RSS after 2 s: ${idle} MB`,
);

// Start-up of the compiled binary to its first /health 200, and its idle RSS, on fresh databases
// (so each start also migrates and creates the first account).
//   npm run build && bun test/bench/startup.ts build/parley 9
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, rssMb } from "./load.ts";

const bin = process.argv[2] ?? "build/parley";
const runs = Number(process.argv[3] ?? 7);
const dir = mkdtempSync(join(tmpdir(), "parley-startup-"));
const times: number[] = [];
let idle = 0;
for (let i = 0; i < runs; i++) {
  const port = await freePort();
  const t0 = performance.now();
  const p = Bun.spawn([bin, "serve", "--db", join(dir, `s${i}.db`), "--port", String(port)], { stdout: "ignore", stderr: "ignore" });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    await Bun.sleep(1);
  }
  times.push(performance.now() - t0);
  if (i === runs - 1) {
    await Bun.sleep(2000);
    idle = await rssMb(p.pid);
  }
  p.kill("SIGTERM");
  await p.exited;
}
times.sort((a, b) => a - b);
console.log(`start → first /health: median ${times[runs >> 1]!.toFixed(1)} ms (min ${times[0]!.toFixed(1)}, max ${times[runs - 1]!.toFixed(1)}, n=${runs}); idle RSS after 2 s: ${idle} MB`);

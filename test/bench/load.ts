// Drives a URL with autocannon (from npm) in a Node child process on its own core, and reads
// requests/s, p50, p99 and errors from its JSON report.
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface BenchRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  /** Server origin, e.g. http://127.0.0.1:3000 */
  origin: string;
  /** Sent in rotation, one per request. */
  requests: BenchRequest[];
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  /** CPU list for taskset (the server gets the other core). */
  cpu?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  total: number;
}

const RUNNER = join(import.meta.dir, "autocannon-runner.cjs");

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  // A file, not an argument: thousands of rotating requests exceed the argument size limit.
  const spec = join(tmpdir(), `parley-bench-${process.pid}-${Date.now()}.json`);
  await Bun.write(spec, JSON.stringify({ url: o.origin, connections: o.connections, duration: o.durationSeconds, headers: o.headers ?? {}, requests: o.requests }));
  const cmd = o.cpu ? ["taskset", "-c", o.cpu, "node", RUNNER, spec] : ["node", RUNNER, spec];
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe", cwd: join(import.meta.dir, "../..") });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`load generator failed: ${await new Response(proc.stderr).text()}`);
  const r = JSON.parse(out) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  };
  return {
    requestsPerSecond: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    total: r.requests.total,
  };
}

export async function waitForHttp(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await Bun.sleep(20);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * Waits until the server answers /health quickly again: a slow scenario leaves requests queued when
 * the load generator stops, and they would otherwise be billed to the next scenario.
 */
export async function settle(origin: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const t = performance.now();
    await fetch(`${origin}/health`);
    if (performance.now() - t < 20) return;
    await Bun.sleep(200);
  }
}

export async function rssMb(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 102.4) / 10;
}

export async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  await s.stop(true);
  return port;
}

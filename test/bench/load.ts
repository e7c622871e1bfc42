// Drives a server with wrk (Debian's `wrk` package; installed with apt-get when missing) on its own
// core, rotating through a list of requests (test/bench/rotate.lua), and reads requests/s, p50,
// p99 and errors from the JSON line the script prints. wrk is C with an event loop: on this machine
// it reaches ~125,000 req/s against a bare Bun.serve, where autocannon (Node) stopped at 11-20,000
// and so measured itself instead of the server.
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export { freePort } from "../helpers/free-port.ts";

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
  /** wrk threads (default 1: one core for the load generator is plenty for wrk). */
  threads?: number;
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

const SCRIPT = join(import.meta.dir, "rotate.lua");

/** The path of wrk, installing Debian's package when it is missing; throws with what to do when it cannot. */
export function ensureWrk(): string {
  const found = Bun.which("wrk");
  if (found) return found;
  console.log("wrk not found: installing Debian's wrk package (apt-get install -y wrk) …");
  const sudo = process.getuid?.() === 0 ? [] : ["sudo", "-n"];
  const install = Bun.spawnSync(
    [...sudo, "sh", "-c", "apt-get install -y wrk || (apt-get update && apt-get install -y wrk)"],
    { stdout: "inherit", stderr: "inherit" },
  );
  const installed = Bun.which("wrk");
  if (install.exitCode === 0 && installed) return installed;
  throw new Error(
    "the bench needs wrk (the HTTP load generator) and could not install it. Install it yourself — `sudo apt-get install wrk` on Debian/Ubuntu, " +
      "`brew install wrk` on macOS, or build it from https://github.com/wg/wrk — and run `npm run bench` again.",
  );
}

/** One raw HTTP/1.1 request, as wrk sends it. */
function raw(origin: string, r: BenchRequest): string {
  const host = new URL(origin).host;
  const body = r.body ?? "";
  const headers: Record<string, string> = { host, ...r.headers };
  if (body) headers["content-length"] = String(Buffer.byteLength(body));
  const lines = [`${r.method ?? "GET"} ${r.path} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const wrk = ensureWrk();
  // A file, not arguments: thousands of rotating requests exceed the argument size limit.
  const file = join(tmpdir(), `parley-bench-${process.pid}-${Date.now()}.requests`);
  await Bun.write(file, o.requests.map((r) => raw(o.origin, r)).join("\0"));
  try {
    const args = [
      wrk,
      `-t${o.threads ?? 1}`,
      `-c${o.connections}`,
      `-d${o.durationSeconds}s`,
      "--timeout",
      "10s",
      "-s",
      SCRIPT,
      o.origin,
      "--",
      file,
    ];
    const proc = Bun.spawn(o.cpu ? ["taskset", "-c", o.cpu, ...args] : args, { stdout: "pipe", stderr: "pipe" });
    const out = await new Response(proc.stdout).text();
    if ((await proc.exited) !== 0) throw new Error(`wrk failed: ${await new Response(proc.stderr).text()}${out}`);
    const line = out.split("\n").findLast((l) => l.startsWith("{"));
    if (!line) throw new Error(`wrk printed no result: ${out}`);
    const r = JSON.parse(line) as {
      requests: number;
      duration_us: number;
      p50_us: number;
      p99_us: number;
      connect: number;
      read: number;
      write: number;
      status: number;
      timeout: number;
    };
    return {
      requestsPerSecond: Math.round(r.requests / (r.duration_us / 1e6)),
      p50: Math.round(r.p50_us / 10) / 100,
      p99: Math.round(r.p99_us / 10) / 100,
      errors: r.connect + r.read + r.write + r.timeout,
      non2xx: r.status,
      total: r.requests,
    };
  } finally {
    rmSync(file, { force: true });
  }
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

/**
 * Waits until the server has been nearly idle for a quarter of a second (≤ 20 ms of CPU, the
 * clock's ticks being 10 ms): work a scenario left behind — the durable listeners catching up on
 * the events its writes recorded — is finished before the next scenario starts, instead of being
 * billed to it (a filter run right after message creation recounted on every commit of that
 * catch-up and measured 40 % slower).
 */
export async function settleIdle(pid: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = await cpuMs(pid);
  while (Date.now() < deadline) {
    await Bun.sleep(250);
    const now = await cpuMs(pid);
    if (now - last <= 20) return;
    last = now;
  }
}

export async function rssMb(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 102.4) / 10;
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (clock ticks of 10 ms). */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await Bun.file(`/proc/${pid}/stat`).text();
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime and stime are fields 14 and 15
}

/**
 * Reads files through once so they sit in the OS page cache. This VM reclaims file pages that were
 * not touched lately (kdamond), even with most of its memory free: an hour after seeding, 540 MB of
 * the 2.4 GB database were cached, and a random conversation read took 143 µs (a disk read) instead
 * of 15.5 µs. A scenario would then measure the disk, by chance. Missing files are skipped.
 */
export async function cacheFiles(...paths: string[]): Promise<void> {
  for (const path of paths) {
    const file = Bun.file(path);
    if (!(await file.exists())) continue;
    const reader = file.stream().getReader();
    while (!(await reader.read()).done) {
      // Reading is the point: the chunks themselves are not needed.
    }
  }
}

/**
 * The public API's per-address and per-contact limits are abuse policy, not capacity: one load
 * generator address would hit them at once. Off for the measurement (documented in test/bench/README.md).
 */
export const PUBLIC_LIMITS_OFF = {
  PARLEY_PUBLIC_REQUESTS_PER_MINUTE: "0",
  PARLEY_PUBLIC_MESSAGES_PER_MINUTE: "0",
  PARLEY_PUBLIC_CONVERSATIONS_PER_HOUR: "0",
  PARLEY_PUBLIC_CONTACTS_PER_HOUR: "0",
};

// Attachment uploads against the server (the compiled binary when built), on core 0:
//   1. 1 MB uploads per second: 8 clients, each posting a message with one distinct 1 MB file in
//      a loop for SECONDS, spread over 100 conversations (the flood guard allows 200 a minute each);
//   2. server RSS while 32 clients upload a 10 MB file at once (sampled from /proc every 20 ms):
//      the body is streamed to disk, so memory must not grow with the files (target < 150 MB).
// The clients are this script (fetch + FormData); run it pinned to the other core. Never part of `bun test`.
//
//   npm run build && taskset -c 1 bun test/bench/uploads.ts [seconds=10]
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuMs, freePort, waitForHttp } from "./load.ts";

const SECONDS = Number(process.argv[2] ?? 10);
const root = join(import.meta.dir, "../..");
const binary = join(root, "build/parley");
const serverCmd = existsSync(binary) ? [binary] : [process.execPath, join(root, "src/main.ts")];
const dir = mkdtempSync(join(tmpdir(), "parley-uploads-"));
const db = join(dir, "bench.db");

function run(args: string[]): string {
  const r = Bun.spawnSync([...serverCmd, ...args], { cwd: root, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/**
 * Resident memory in kB: all of it, and the anonymous part (heap, buffers: what the process
 * allocated). The rest is file-backed — mostly the binary's own pages — and the kernel can drop it.
 */
async function rssKb(pid: number): Promise<{ all: number; anon: number }> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { all: kb("VmRSS"), anon: kb("RssAnon") };
}

/** A file of `bytes` whose first bytes make it unique (no two uploads share content). */
function fileOf(bytes: number, n: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(bytes);
  new DataView(b.buffer).setFloat64(0, n + Math.random());
  return b;
}

async function main() {
  const boot = JSON.parse(
    run(["bootstrap", "--db", db, "--account", "Bench", "--name", "Admin", "--email", "admin@bench.local", "--json"]),
  );
  const port = await freePort();
  const server = Bun.spawn(["taskset", "-c", "0", ...serverCmd, "serve", "--db", db, "--port", String(port)], {
    stdout: "ignore",
    stderr: "inherit",
    env: { ...process.env, PARLEY_LOG_LEVEL: "warn" },
  });
  try {
    const origin = `http://127.0.0.1:${port}`;
    await waitForHttp(`${origin}/health`);
    const base = `${origin}/api/v1/accounts/${boot.account_id}`;
    const token = { api_access_token: boot.api_access_token };
    const post = async (path: string, body: unknown) =>
      (
        await fetch(`${base}${path}`, {
          method: "POST",
          headers: { ...token, "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json();
    const inbox = await post("/inboxes", { name: "Bench", channel: { type: "api" } });
    const conversations: number[] = [];
    for (let i = 0; i < 100; i++) {
      const contact = await post("/contacts", { name: `Bench ${i}`, email: `c${i}@bench.local` });
      conversations.push(
        (await post("/conversations", { inbox_id: inbox.id, contact_id: contact.payload.contact.id })).id,
      );
    }
    let n = 0;
    const upload = async (bytes: number) => {
      const i = n++;
      const form = new FormData();
      form.append("content", `file ${i}`);
      form.append("attachments[]", new File([fileOf(bytes, i)], `f${i}.bin`));
      const r = await fetch(`${base}/conversations/${conversations[i % conversations.length]}/messages`, {
        method: "POST",
        headers: token,
        body: form,
      });
      await r.arrayBuffer();
      return r.status;
    };

    const idle = await rssKb(server.pid);
    // 1. Throughput of 1 MB uploads.
    const cpu0 = await cpuMs(server.pid);
    const deadline = performance.now() + SECONDS * 1000;
    let ok = 0;
    let failed = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (performance.now() < deadline) {
          if ((await upload(1024 * 1024)) === 200) ok++;
          else failed++;
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const cpu = (await cpuMs(server.pid)) - cpu0;

    // 2. RSS during 32 concurrent 10 MB uploads (two rounds).
    let peak = 0;
    let peakAnon = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const rss = await rssKb(server.pid);
        peak = Math.max(peak, rss.all);
        peakAnon = Math.max(peakAnon, rss.anon);
        await Bun.sleep(20);
      }
    })();
    const big: number[] = [];
    for (let round = 0; round < 2; round++)
      big.push(...(await Promise.all(Array.from({ length: 32 }, () => upload(10 * 1024 * 1024)))));
    sampling = false;
    await sampler;

    console.log(
      `\nattachment uploads, server ${serverCmd[0] === binary ? "binary" : "from source"} on core 0, clients in this process\n`,
    );
    console.log("| measure | value |\n|---|---|");
    console.log(
      `| 1 MB uploads per second (8 clients, ${SECONDS} s) | ${(ok / elapsed).toFixed(1)} (${failed} failed) |`,
    );
    console.log(`| server CPU per 1 MB upload | ${((cpu * 1000) / Math.max(1, ok) / 1000).toFixed(2)} ms |`);
    console.log(`| idle RSS (anonymous) | ${(idle.all / 1024).toFixed(1)} MB (${(idle.anon / 1024).toFixed(1)} MB) |`);
    console.log(
      `| peak RSS (anonymous), 32 concurrent 10 MB uploads × 2 rounds | ${(peak / 1024).toFixed(1)} MB (${(peakAnon / 1024).toFixed(1)} MB; ${big.filter((s) => s === 200).length}/64 stored) |`,
    );
  } finally {
    server.kill("SIGTERM");
    await server.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

// Webhook delivery throughput to a local receiver (a separate Bun process answering 204), on a file
// database (WAL, synchronous=NORMAL) with the real job: every delivery is signed, POSTed through the
// SSRF guard, and its attempt recorded in its own transaction. Compared with a bare signed fetch loop at
// the same concurrency, which is the ceiling for this receiver on this machine.
//
//   bun test/bench/webhooks.ts [events=20000]
//
// Last run (Bun 1.4.5, 2 vCPUs shared with other work at load average 6-10, so absolute numbers are low):
//   bare signed fetch loop, concurrency 4: 7,546/s; live record + deliver, 1 webhook, 1000 conversations:
//   1,642/s; backlog after a restart: 2,234/s; one conversation, strictly serial: 1,431/s; 4 webhooks:
//   1,617/s. Per delivery: ~100-150 µs HTTP, ~80 µs choosing the next ones, ~90-200 µs recording the
//   attempt (batched commits; WAL writes and checkpoints are most of it on a file database).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createDeps, type Deps } from "../../src/deps.ts";
import { PER_TARGET } from "../../src/jobs/deliver-webhooks.job.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { signatureHeaders } from "../../src/lib/webhook-signature.ts";

const EVENTS = Number(process.argv[2] ?? 20_000);
const CONTENT = "x".repeat(800); // with the envelope, a ~1 KB body

const receiverCode = `
const s = Bun.serve({ port: 0, hostname: "127.0.0.1", async fetch(req) { await req.text(); return new Response(null, { status: 204 }); } });
console.log(s.port);`;

async function startReceiver(): Promise<{ url: string; proc: Bun.Subprocess }> {
  const proc = Bun.spawn([process.execPath, "-e", receiverCode], { stdout: "pipe" });
  const reader = proc.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  return { url: `http://127.0.0.1:${new TextDecoder().decode(value).trim()}/hook`, proc };
}

function open(path: string): Deps {
  const db = openDatabase(path);
  migrate(db);
  const config = loadConfig({ db: path }, { PARLEY_ALLOW_PRIVATE_WEBHOOKS: "1", PARLEY_LOG_LEVEL: "error" });
  return createDeps({ db, config, logger: createLogger("error") });
}

function record(d: Deps, accountId: number, events: number, conversations: number, firstId = 1) {
  for (let start = 0; start < events; start += 100) {
    d.writeTx.now(() => {
      for (let i = start; i < Math.min(events, start + 100); i++) {
        const conversation = (i % conversations) + 1;
        d.outbox.record({
          kind: "message_created",
          accountId,
          actor: { type: "user", id: 1 },
          conversationId: conversation,
          payload: { id: firstId + i, content: CONTENT, message_type: "incoming", conversation: { id: conversation } },
        });
      }
    });
  }
}

function attemptLatency(d: Deps): { p50: number; p99: number } {
  const all = (
    d.db.query("SELECT latency_ms FROM webhook_attempts ORDER BY latency_ms").all() as { latency_ms: number }[]
  ).map((r) => r.latency_ms);
  return { p50: all[Math.floor(all.length * 0.5)] ?? 0, p99: all[Math.floor(all.length * 0.99)] ?? 0 };
}

function checkAllDelivered(d: Deps, expected: number) {
  const r = d.db.query("SELECT status, COUNT(*) AS n FROM webhook_deliveries GROUP BY status").all() as {
    status: string;
    n: number;
  }[];
  const delivered = r.find((x) => x.status === "delivered")?.n ?? 0;
  if (delivered !== expected) throw new Error(`expected ${expected} delivered, got ${JSON.stringify(r)}`);
}

/** One scenario on a fresh database: `webhooks` subscriptions, events over `conversations` conversations. */
async function scenario(
  label: string,
  url: string,
  o: { webhooks: number; conversations: number; events: number; backlog: boolean },
) {
  const path = join(mkdtempSync(join(tmpdir(), "parley-bench-")), "bench.db");
  let d = open(path);
  const { account_id } = await d.services.accounts.bootstrap({ account: "Bench", name: "B", email: "b@bench.test" });
  for (let i = 0; i < o.webhooks; i++)
    await d.services.webhooks.create(account_id, { url: `${url}?w=${i}`, subscriptions: ["message_created"] });
  const deliveries = o.events * o.webhooks;
  let seconds: number;
  if (o.backlog) {
    // What a restart after an outage (or kill -9) finds: everything pending at once.
    await d.deliverer.stop();
    record(d, account_id, o.events, o.conversations);
    d.db.close();
    d = open(path);
    const t0 = performance.now();
    await d.deliverer.drain();
    seconds = (performance.now() - t0) / 1000;
  } else {
    // Live: events recorded in 100-event transactions while the job delivers them as they commit.
    const t0 = performance.now();
    record(d, account_id, o.events, o.conversations);
    await d.deliverer.drain();
    seconds = (performance.now() - t0) / 1000;
  }
  checkAllDelivered(d, deliveries);
  const lat = attemptLatency(d);
  d.db.close();
  const rate = deliveries / seconds;
  console.log(
    `${label.padEnd(58)} ${String(deliveries).padStart(7)} ${seconds.toFixed(2).padStart(7)} s ${Math.round(rate).toString().padStart(7)}/s   attempt p50 ${lat.p50} ms, p99 ${lat.p99} ms`,
  );
  return rate;
}

/** The ceiling: signed fetch POSTs of the same body at `concurrency`, no database. */
async function bareFetch(url: string, total: number, concurrency: number): Promise<number> {
  const body = JSON.stringify({
    event: "message_created",
    id: 1,
    content: CONTENT,
    message_type: "incoming",
    conversation: { id: 1 },
  });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) {
        const headers = {
          "content-type": "application/json",
          ...signatureHeaders("secret", crypto.randomUUID(), body, Date.now() / 1000),
        };
        const res = await fetch(url, {
          method: "POST",
          body,
          headers,
          redirect: "manual",
          signal: AbortSignal.timeout(5000),
        });
        await res.arrayBuffer();
      }
    }),
  );
  const rate = total / ((performance.now() - t0) / 1000);
  console.log(
    `${`bare signed fetch loop, concurrency ${concurrency} (no database)`.padEnd(58)} ${String(total).padStart(7)} ${((performance.now() - t0) / 1000).toFixed(2).padStart(7)} s ${Math.round(rate).toString().padStart(7)}/s`,
  );
  return rate;
}

const rx = await startReceiver();
try {
  console.log(`Webhook delivery throughput, Bun ${Bun.version}, receiver in its own process, ~1 KB bodies\n`);
  const bare = await bareFetch(rx.url, EVENTS, PER_TARGET);
  const live = await scenario("live: record + deliver, 1 webhook, 1000 conversations", rx.url, {
    webhooks: 1,
    conversations: 1000,
    events: EVENTS,
    backlog: false,
  });
  const backlog = await scenario("backlog after restart, 1 webhook, 1000 conversations", rx.url, {
    webhooks: 1,
    conversations: 1000,
    events: EVENTS,
    backlog: true,
  });
  await scenario("backlog, 1 webhook, 1 conversation (strictly serial)", rx.url, {
    webhooks: 1,
    conversations: 1,
    events: Math.min(EVENTS, 5000),
    backlog: true,
  });
  const bare16 = await bareFetch(rx.url, EVENTS, 4 * PER_TARGET);
  const four = await scenario("backlog, 4 webhooks, 1000 conversations", rx.url, {
    webhooks: 4,
    conversations: 1000,
    events: EVENTS / 4,
    backlog: true,
  });
  console.log(
    `\nratio to the bare loop: live ${(live / bare).toFixed(2)}, backlog ${(backlog / bare).toFixed(2)} (concurrency ${PER_TARGET}); 4 webhooks ${(four / bare16).toFixed(2)} (concurrency ${4 * PER_TARGET})`,
  );
} finally {
  rx.proc.kill();
}

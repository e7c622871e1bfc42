// Several `parley serve` processes on one PostgreSQL, no balancer: the test spreads requests over
// them. 2,000 messages: each stored once, each message_created webhook delivered once (the
// receiver counts delivery ids and requests), and a socket on the third process hears the events
// in order. Every process sends webhooks: a receiver gets more requests at once than one process
// sends it, each once and in order. Then chaos: the process running the background work is killed
// with -9 under load; every acknowledged message is stored once, and another process takes the work
// over and delivers every event. Runs once, in `npm test` (it brings its own PostgreSQL; skipped
// where there is none).
import { afterAll, describe, expect, test } from "bun:test";
import { PER_TARGET } from "../../src/jobs/deliver-webhooks.job.ts";
import { CableClient } from "../helpers/cable.ts";
import { postgresForFile } from "../helpers/postgres.ts";
import { type Cluster, startCluster } from "../helpers/postgres-cluster.ts";
import type { ServerProcess } from "../helpers/server-process.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";
import { startReceiver } from "../helpers/webhooks.ts";

const procs: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of procs) p.kill(9);
});
const { server, skip } = await postgresForFile("several processes on PostgreSQL");
const CONVERSATIONS = 20; // 100 messages each: under the flood guard's 200 a minute

/**
 * The webhook receiver (helpers/webhooks.ts), counting message_created requests by delivery id, in
 * the order they arrive; `answer` may hold a request's answer back.
 */
function receiver(answer: () => number | Promise<number> = () => 200) {
  const requests: { delivery: string; messageId: number; conversationId: number }[] = [];
  const distinct = new Set<string>();
  let waiting: { n: number; resolve: () => void } | null = null;
  const rx = startReceiver((_n, req) => {
    if (req.json.event === "message_created") {
      const delivery = req.headers.get("x-chatwoot-delivery")!;
      requests.push({ delivery, messageId: req.json.id, conversationId: req.json.conversation.id });
      distinct.add(delivery);
      if (waiting && distinct.size >= waiting.n) waiting.resolve();
    }
    return answer();
  });
  return {
    url: rx.url,
    requests,
    distinct,
    /** Resolves once n distinct deliveries have arrived. */
    reached(n: number): Promise<void> {
      if (distinct.size >= n) return Promise.resolve();
      const { promise, resolve } = Promise.withResolvers<void>();
      waiting = { n, resolve };
      return promise;
    },
    stop: () => rx.stop(),
  };
}

const cluster = (name: string, count: number, more: Record<string, string> = {}) =>
  startCluster(server!, procs, name, count, more);

/** An inbox, a contact and CONVERSATIONS conversations, and a webhook for message_created. */
async function setUp(c: Cluster, hook: string) {
  const [a] = c.processes;
  const inbox = (await c.call(a!, "POST", "/inboxes", { name: "Load", channel: { type: "api" } })).body.id;
  const contact = (await c.call(a!, "POST", "/contacts", { name: "Lou" })).body.payload.contact.id;
  const conversations: number[] = [];
  for (let i = 0; i < CONVERSATIONS; i++)
    conversations.push((await c.call(a!, "POST", "/conversations", { inbox_id: inbox, contact_id: contact })).body.id);
  const webhook = await c.call(a!, "POST", "/webhooks", { url: hook, subscriptions: ["message_created"] });
  expect(webhook.status).toBe(200);
  return conversations;
}

/** Rows in PostgreSQL itself: what was stored, whatever the API said. */
async function storedContents(url: string): Promise<string[]> {
  const sql = new Bun.SQL(url);
  try {
    const rows = await sql`SELECT content FROM messages WHERE content LIKE 'm-%' ORDER BY id`;
    return rows.map((r: { content: string }) => r.content);
  } finally {
    await sql.close();
  }
}

describe.skipIf(skip !== null || TEST_ENGINE === "postgres")("several processes on one PostgreSQL", () => {
  test("2,000 messages over three processes: stored once, delivered once, heard in order on another process", async () => {
    const hook = receiver();
    const c = await cluster("three", 3);
    const [, b, third] = c.processes as [ServerProcess, ServerProcess, ServerProcess];
    const conversations = await setUp(c, hook.url);
    const socket = await CableClient.connect(`${third.base.replace("http", "ws")}/cable?api_access_token=${c.token}`);
    await socket.subscribe({ account_id: 1 });

    const N = 2000;
    const viaA: number[] = [];
    for (let start = 0; start < N; start += 30) {
      const batch = Array.from({ length: Math.min(30, N - start) }, (_, k) => start + k);
      const answers = await Promise.all(
        batch.map((i) =>
          c.call(c.processes[i % 3]!, "POST", `/conversations/${conversations[i % CONVERSATIONS]}/messages`, {
            content: `m-${i}`,
          }),
        ),
      );
      for (const [k, r] of answers.entries()) {
        expect(r.status).toBe(200);
        if (batch[k]! % 3 === 0) viaA.push(r.body.id);
      }
    }

    const stored = await storedContents(c.url);
    expect(stored.length).toBe(N);
    expect(new Set(stored).size).toBe(N);

    await hook.reached(N);
    expect(hook.distinct.size).toBe(N);
    expect(hook.requests.length).toBe(N); // no delivery sent twice, by one process or two
    expect(new Set(hook.requests.map((r) => r.messageId)).size).toBe(N);

    // The socket on the third process hears what was written through the first, in the order it was
    // written (the ids' order: requests sent together finish in any order).
    const last = viaA.at(-1)!;
    await socket.until((f) => f.message?.event === "message.created" && f.message.data?.id === last, 20_000);
    const heard = socket.messages("message.created").map((m) => m.data.id as number);
    const heardFromA = heard.filter((id) => viaA.includes(id));
    expect(heardFromA).toEqual([...viaA].sort((x, y) => x - y));
    const seqs = socket.events().map((e) => e.seq as number);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(b.proc.exitCode).toBeNull();
    await hook.stop();
  }, 120_000);

  test("every process sends webhooks: more at once than one process sends a receiver, each once and in order", async () => {
    // Answers are held until 12 requests are open at once. One process sends one receiver at most
    // PER_TARGET (4) at a time, so only all three processes sending together get there.
    const together = 3 * PER_TARGET;
    const held: (() => void)[] = [];
    const hook = receiver(() => {
      if (held.length >= together) return 200;
      const { promise, resolve } = Promise.withResolvers<number>();
      held.push(() => resolve(200));
      if (held.length === together) for (const answer of held) answer();
      return promise;
    });
    // Held answers must not time out into retries (a retry is a second request for one delivery).
    const c = await cluster("shared", 3, { PARLEY_WEBHOOK_TIMEOUT_MS: "60000" });
    const conversations = await setUp(c, hook.url);
    const N = 60;
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        c.call(c.processes[i % 3]!, "POST", `/conversations/${conversations[i % CONVERSATIONS]}/messages`, {
          content: `m-${i}`,
        }),
      ),
    );
    for (const r of answers) expect(r.status).toBe(200);

    await hook.reached(N);
    expect(held.length).toBe(together);
    expect(hook.requests.length).toBe(N); // none sent twice, by one process or two
    expect(new Set(hook.requests.map((r) => r.messageId)).size).toBe(N);
    // Each conversation's deliveries arrived in the order its messages were stored.
    for (const id of conversations) {
      const arrived = hook.requests.filter((r) => r.conversationId === id).map((r) => r.messageId);
      expect(arrived.length).toBe(N / CONVERSATIONS);
      expect(arrived).toEqual([...arrived].sort((x, y) => x - y));
    }
    await hook.stop();
  }, 120_000);

  test("kill -9 of the process doing the background work under load: nothing acknowledged is lost, every event is delivered", async () => {
    const hook = receiver();
    const c = await cluster("chaos", 3);
    const [leader, b, third] = c.processes as [ServerProcess, ServerProcess, ServerProcess];
    const conversations = await setUp(c, hook.url);

    const acknowledged: string[] = [];
    const send = async (p: ServerProcess, i: number) => {
      try {
        const r = await c.call(p, "POST", `/conversations/${conversations[i % CONVERSATIONS]}/messages`, {
          content: `m-${i}`,
        });
        if (r.status === 200) acknowledged.push(`m-${i}`);
      } catch {
        // the killed process's connection: not acknowledged
      }
    };
    const first = Array.from({ length: 300 }, (_, i) => send(c.processes[i % 3]!, i));
    // The first process started first and holds the background lease: kill it while requests are under way.
    leader.proc.kill(9);
    await Promise.all(first);
    await leader.exited;
    for (let i = 300; i < 600; i += 20)
      await Promise.all(Array.from({ length: 20 }, (_, k) => send(k % 2 ? b : third, i + k)));

    const stored = await storedContents(c.url);
    expect(new Set(stored).size).toBe(stored.length); // none twice
    for (const m of acknowledged) expect(stored).toContain(m);
    expect(acknowledged.length).toBeGreaterThanOrEqual(300);

    // Another process takes the lease over and delivers every stored message's event.
    await hook.reached(stored.length);
    expect(hook.distinct.size).toBe(stored.length);
    await hook.stop();
  }, 120_000);
});

// BENCH_WEBHOOK=1 (engines.ts): each setup is measured with a webhook subscribed to message_created,
// whose receiver (a Bun process on the load generator's core, answering 204) counts what arrives.
// What it shows: a server's request rate while its deliverer sends an event for each message, and
// whether the deliverer kept up (deliveries received against messages created).

interface Seed {
  account_id: number;
  api_access_token: string;
}

const receiverCode = `
let n = 0;
const s = Bun.serve({ port: 0, hostname: "127.0.0.1", async fetch(req) {
  if (req.method === "GET") return Response.json({ received: n });
  await req.text(); n++; return new Response(null, { status: 204 });
} });
console.log(s.port);`;

export interface BenchWebhook {
  /** Deliveries received so far. */
  received(): Promise<number>;
  /** Deletes the webhook (a SQLite setup runs on the kept seed file) and stops the receiver. */
  stop(): Promise<void>;
}

export async function benchWebhook(origin: string, s: Seed): Promise<BenchWebhook> {
  const proc = Bun.spawn(["taskset", "-c", "1", process.execPath, "-e", receiverCode], { stdout: "pipe" });
  const reader = proc.stdout.getReader();
  const port = new TextDecoder().decode((await reader.read()).value).trim();
  reader.releaseLock();
  const receiver = `http://127.0.0.1:${port}`;
  const headers = { api_access_token: s.api_access_token, "content-type": "application/json" };
  const api = `${origin}/api/v1/accounts/${s.account_id}/webhooks`;
  const created = await fetch(api, {
    method: "POST",
    headers,
    body: JSON.stringify({ url: `${receiver}/hook`, subscriptions: ["message_created"] }),
  });
  if (created.status !== 200) throw new Error(`bench webhook: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: number };
  return {
    async received() {
      return ((await (await fetch(receiver)).json()) as { received: number }).received;
    },
    async stop() {
      await fetch(`${api}/${id}`, { method: "DELETE", headers });
      proc.kill();
      await proc.exited;
    },
  };
}

// The delivery job's test world: a harness allowed to deliver to 127.0.0.1, receivers stopped after
// each test, message events, the docs' verification recipe, and a step to the next scheduled retry.
import { createHarness, type Harness } from "./harness.ts";
import { makeAccount } from "./factories.ts";
import { readmeModule } from "./readme.ts";
import { startReceiver, type Receiver } from "./webhooks.ts";

export type Verify = (secret: string, headers: Headers, body: string, nowSeconds?: number) => boolean;

/** The verification recipe exactly as docs/webhooks.md prints it. */
export async function readmeRecipe(): Promise<Verify> {
  return (await readmeModule("webhook-verify")).verifyParleyWebhook as Verify;
}

/** For a test file: `receiver(...)` starts a receiver, and every one started is stopped after each test. */
export function receiversEach(
  afterEach: (fn: () => Promise<void>) => void,
): (...args: Parameters<typeof startReceiver>) => Receiver {
  const receivers: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.stop()));
  });
  return (...args) => {
    const r = startReceiver(...args);
    receivers.push(r);
    return r;
  };
}

/** A harness that may deliver to private addresses, its clock at real time, and an account. */
export async function setup(config: Record<string, unknown> = {}) {
  const h = createHarness({ config: { allowPrivateWebhooks: true, ...config } });
  h.clock.set(Date.now()); // signatures carry the clock's time; receivers compare it with real time
  const a = await makeAccount(h, "Acme");
  return { h, a };
}

export const message = (accountId: number, conversationId: number, id: number) => ({
  kind: "message_created" as const,
  accountId,
  conversationId,
  payload: { id, content: `message ${id}`, conversation: { id: conversationId } },
});

/** Moves the clock to the latest scheduled retry (so every waiting one is due) and runs the job. */
export async function nextRound(h: Harness) {
  const next = h.deps.db
    .query("SELECT MAX(next_attempt_at_ms) AS t FROM webhook_deliveries WHERE status = 'pending'")
    .get() as { t: number | null };
  if (next.t !== null && next.t > h.clock.nowMs()) h.clock.set(next.t);
  await h.deps.deliverer.drain();
}

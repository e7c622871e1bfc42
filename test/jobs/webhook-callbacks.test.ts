// API inbox callbacks: signed with the inbox's own secret, durable like webhooks, and when a message's
// callback finally fails the messages feature is told (onCallbackGaveUp) with the message id and reason.
import { afterEach, describe, expect, test } from "bun:test";
import { TwoWayStatement } from "../../src/db/reads.ts";
import { verifySignature } from "../../src/lib/webhook-signature.ts";
import type { GaveUpCallback } from "../../src/jobs/deliver-webhooks.job.ts";
import { AttemptRecorder } from "../../src/jobs/webhook-attempts.ts";
import { createHarness, type HarnessOptions } from "../helpers/harness.ts";
import { makeAccount } from "../helpers/factories.ts";
import { deliveryRows, makeInbox, recordEvents, startReceiver, type Receiver } from "../helpers/webhooks.ts";
import { observedWriteTx } from "../helpers/tx-fixtures.ts";

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

async function setup(status: number, deps?: HarnessOptions["deps"]) {
  const h = createHarness({ config: { allowPrivateWebhooks: true }, deps });
  const a = await makeAccount(h, "Acme");
  const rx = startReceiver(() => status);
  receivers.push(rx);
  const inboxId = makeInbox(h, a.accountId, { webhook_url: rx.url });
  return { h, a, rx, inboxId };
}

/** Runs attempts until nothing is pending, jumping the clock over each backoff. */
async function exhaust(h: ReturnType<typeof createHarness>) {
  await h.deps.deliverer.drain();
  for (let i = 0; i < 10; i++) {
    h.clock.advance(13 * 3_600_000);
    await h.deps.deliverer.drain();
  }
}

describe("API inbox callbacks", () => {
  test("are signed with the inbox's callback secret", async () => {
    const { h, a, rx, inboxId } = await setup(200);
    await recordEvents(h, [
      {
        kind: "message_created",
        accountId: a.accountId,
        inboxId,
        conversationId: 1,
        payload: { id: 5, message_type: "outgoing" },
      },
    ]);
    await h.deps.deliverer.drain();
    const secret = (
      h.deps.db.query("SELECT webhook_secret FROM inboxes WHERE id = ?").get(inboxId) as { webhook_secret: string }
    ).webhook_secret;
    const [req] = rx.received;
    expect(req!.json).toEqual({ event: "message_created", id: 5, message_type: "outgoing" });
    const nowUnix = h.clock.nowMs() / 1000;
    expect(
      verifySignature({
        secret,
        body: req!.body,
        timestamp: req!.headers.get("x-chatwoot-timestamp"),
        signature: req!.headers.get("x-chatwoot-signature"),
        nowUnix,
      }),
    ).toBe(true);
    expect(deliveryRows(h)[0]).toMatchObject({ webhook_id: null, inbox_id: inboxId, status: "delivered" });
  });

  test("when a message's callback finally fails, onCallbackGaveUp gets the message id and the reason", async () => {
    const calls: [GaveUpCallback, string][] = [];
    const { h, a, rx, inboxId } = await setup(500, { onCallbackGaveUp: (d, reason) => void calls.push([d, reason]) });
    await recordEvents(h, [
      {
        kind: "message_created",
        accountId: a.accountId,
        inboxId,
        conversationId: 1,
        payload: { id: 812, message_type: "outgoing" },
      },
    ]);
    await h.deps.deliverer.drain();
    expect(calls).toEqual([]); // a retryable failure is not final
    await exhaust(h);
    expect(rx.received).toHaveLength(8);
    const [row] = deliveryRows(h);
    expect(row.status).toBe("failed");
    expect(calls).toEqual([
      [
        { deliveryId: row.delivery_id, accountId: a.accountId, inboxId, eventKind: "message_created", messageId: 812 },
        "HTTP 500",
      ],
    ]);
  });

  test("a refusal is final at once; message_updated counts too; other kinds never call the hook", async () => {
    const calls: [GaveUpCallback, string][] = [];
    const { h, a, inboxId } = await setup(422, { onCallbackGaveUp: (d, reason) => void calls.push([d, reason]) });
    await recordEvents(h, [
      { kind: "message_updated", accountId: a.accountId, inboxId, conversationId: 1, payload: { id: 9 } },
      { kind: "conversation_created", accountId: a.accountId, inboxId, conversationId: 2, payload: { id: 2 } },
    ]);
    await h.deps.deliverer.drain();
    expect(deliveryRows(h).map((r) => r.status)).toEqual(["failed", "failed"]);
    expect(calls.map(([d, reason]) => [d.eventKind, d.messageId, reason])).toEqual([
      ["message_updated", 9, "HTTP 422"],
    ]);
  });

  test("a callback to a blocked address fails with the block as the reason", async () => {
    const calls: string[] = [];
    const h = createHarness({ deps: { onCallbackGaveUp: (_d, reason) => void calls.push(reason) } });
    const a = await makeAccount(h, "Acme");
    const inboxId = makeInbox(h, a.accountId, { webhook_url: "http://169.254.169.254/latest/meta-data" });
    await recordEvents(h, [
      { kind: "message_created", accountId: a.accountId, inboxId, conversationId: 1, payload: { id: 1 } },
    ]);
    await h.deps.deliverer.drain();
    expect(calls).toEqual(["blocked: address 169.254.169.254 is a link-local address"]);
  });

  test("a throwing hook does not make the request repeat: the attempt is recorded and the delivery failed", async () => {
    let calls = 0;
    const { h, a, rx, inboxId } = await setup(400, {
      onCallbackGaveUp: () => {
        calls++;
        throw new Error("messages table is locked");
      },
    });
    await recordEvents(h, [
      { kind: "message_created", accountId: a.accountId, inboxId, conversationId: 1, payload: { id: 3 } },
    ]);
    await h.deps.deliverer.drain();
    await h.deps.deliverer.drain();
    expect(calls).toBe(1);
    expect(rx.received).toHaveLength(1);
    expect(deliveryRows(h)[0]).toMatchObject({ status: "failed", attempts: 1 });
  });

  test("outcomes recorded in one turn share a transaction; if one hook throws, the others stand with their hook", async () => {
    const h = createHarness();
    await h.deps.deliverer.stop(); // this test records outcomes itself
    const a = await makeAccount(h, "Acme");
    const inboxId = makeInbox(h, a.accountId, { webhook_url: "https://cb.example.com" });
    h.deps.db.exec("CREATE TABLE marks (message_id INTEGER)");
    const mark = new TwoWayStatement(h.deps.db, "INSERT INTO marks (message_id) VALUES ($id)");
    await recordEvents(
      h,
      [1, 2, 3].map((id) => ({
        kind: "message_created" as const,
        accountId: a.accountId,
        inboxId,
        conversationId: id,
        payload: { id },
      })),
    );
    let transactions = 0;
    const writeTx = observedWriteTx(h.deps.writeTx, () => transactions++);
    const recorder = new AttemptRecorder({
      ...h.deps,
      deliveries: h.deps.repos.webhookDeliveries,
      webhooks: h.deps.repos.webhooks,
      writeTx,
      // A step of the delivery's transaction body: rolls back with it.
      onCallbackGaveUp: (d) => {
        if (d.messageId === 2) throw new Error("cannot mark message 2");
        return mark.insertSteps({ id: d.messageId });
      },
    });
    const result = { status: 400, error: "HTTP 400", latencyMs: 3, responseBody: "", retryAfterSeconds: null };
    await Promise.all(
      deliveryRows(h).map((r) => recorder.record({ id: r.id, startedAt: h.clock.nowMs(), result, refused: false })),
    );
    // the batch (1 transaction) rolled back; then each alone (3), and #2 once more without its hook (1)
    expect(transactions).toBe(5);
    expect(deliveryRows(h).map((r) => [r.status, r.attempts])).toEqual([
      ["failed", 1],
      ["failed", 1],
      ["failed", 1],
    ]);
    expect(h.deps.db.query("SELECT message_id FROM marks ORDER BY message_id").all()).toEqual([
      { message_id: 1 },
      { message_id: 3 },
    ]);
    expect(h.deps.db.query("SELECT COUNT(*) AS n FROM webhook_attempts").get()).toEqual({ n: 3 });
  });

  test("outcomes finished in the same turn are committed in one transaction", async () => {
    const h = createHarness();
    await h.deps.deliverer.stop();
    const a = await makeAccount(h, "Acme");
    await h.request("POST", `/api/v1/accounts/${a.accountId}/webhooks`, {
      token: a.adminToken,
      body: { url: "https://hooks.example.com" },
    });
    await recordEvents(
      h,
      [1, 2, 3, 4].map((id) => ({
        kind: "contact_created" as const,
        accountId: a.accountId,
        contactId: id,
        payload: { id },
      })),
    );
    let transactions = 0;
    const recorder = new AttemptRecorder({
      ...h.deps,
      deliveries: h.deps.repos.webhookDeliveries,
      webhooks: h.deps.repos.webhooks,
      writeTx: observedWriteTx(h.deps.writeTx, () => transactions++),
      onCallbackGaveUp: () => undefined,
    });
    const ok = { status: 204, error: null, latencyMs: 1, responseBody: "", retryAfterSeconds: null };
    await Promise.all(
      deliveryRows(h).map((r) => recorder.record({ id: r.id, startedAt: h.clock.nowMs(), result: ok, refused: false })),
    );
    expect(transactions).toBe(1);
    expect(deliveryRows(h).map((r) => r.status)).toEqual(Array(4).fill("delivered"));
  });
});

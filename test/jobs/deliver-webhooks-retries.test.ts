// The delivery job when receivers fail (real HTTP on 127.0.0.1, the ManualClock skips backoff, drain() runs it):
// retries until delivered or given up, 410 Gone, a blocked private address, a timeout, an attempt that throws.
import { afterEach, describe, expect, test } from "bun:test";
import { RETRY_DELAYS_MS } from "../../src/domain/delivery-policy.ts";
import { message, nextRound, readmeRecipe, receiversEach, setup } from "../helpers/delivery-fixtures.ts";
import { attemptRows, createWebhook, deliveryRows, recordEvents } from "../helpers/webhooks.ts";

const receiver = receiversEach(afterEach);

describe("delivery", () => {
  test("a receiver failing 3 times then succeeding gets the event delivered once, with one delivery id throughout", async () => {
    const { h, a } = await setup();
    const verify = await readmeRecipe();
    const rx = receiver((n) => (n <= 3 ? 503 : 200));
    const w = await createWebhook(h, a.accountId, a.adminToken, { url: rx.url });
    await recordEvents(h, [message(a.accountId, 1, 1)]);
    await h.deps.deliverer.drain();
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [row] = deliveryRows(h);
      expect(row).toMatchObject({
        status: "pending",
        attempts: attempt,
        last_status_code: 503,
        last_error: "HTTP 503",
      });
      const wait = row.next_attempt_at_ms - h.clock.nowMs();
      expect(wait).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[attempt - 1]! * 0.8);
      expect(wait).toBeLessThanOrEqual(RETRY_DELAYS_MS[attempt - 1]! * 1.2);
      await h.deps.deliverer.drain(); // not due yet: nothing is sent
      expect(rx.received).toHaveLength(attempt);
      await nextRound(h);
    }
    const [row] = deliveryRows(h);
    expect(row).toMatchObject({ status: "delivered", attempts: 4, last_status_code: 200 });
    expect(attemptRows(h, row.id).map((x) => x.status_code)).toEqual([503, 503, 503, 200]);
    expect(rx.received.map((r) => r.headers.get("x-chatwoot-delivery"))).toEqual(Array(4).fill(row.delivery_id));
    const stamps = rx.received.map((r) => Number(r.headers.get("x-chatwoot-timestamp")));
    expect(new Set(stamps).size).toBe(4); // re-signed with a fresh timestamp each time
    for (const r of rx.received)
      expect(verify(w.secret, r.headers, r.body, Number(r.headers.get("x-chatwoot-timestamp")))).toBe(true);
  });

  test("gives up after 8 attempts over about a day", async () => {
    const { h, a } = await setup();
    const rx = receiver(() => 500);
    await createWebhook(h, a.accountId, a.adminToken, { url: rx.url });
    await recordEvents(h, [message(a.accountId, 1, 1)]);
    const first = h.clock.nowMs();
    await h.deps.deliverer.drain();
    for (let i = 0; i < 10; i++) await nextRound(h);
    expect(rx.received).toHaveLength(8);
    const [row] = deliveryRows(h);
    expect(row).toMatchObject({ status: "failed", attempts: 8, next_attempt_at_ms: null, last_error: "HTTP 500" });
    const hours = (h.clock.nowMs() - first) / 3_600_000;
    expect(hours).toBeGreaterThan(27.6 * 0.8);
    expect(hours).toBeLessThan(27.6 * 1.2);
  });

  test("410 Gone disables the webhook and fails what was waiting for it, without sending it", async () => {
    const { h, a } = await setup();
    const rx = receiver(() => 410);
    const w = await createWebhook(h, a.accountId, a.adminToken, { url: rx.url });
    await recordEvents(h, [message(a.accountId, 1, 1), message(a.accountId, 1, 2)]);
    await h.deps.deliverer.drain();
    expect(rx.received).toHaveLength(1);
    const [first, second] = deliveryRows(h);
    const reason = `the receiver answered 410 Gone to delivery ${first.delivery_id}`;
    expect(first).toMatchObject({ status: "failed", attempts: 1, last_status_code: 410 });
    expect(second).toMatchObject({ status: "failed", attempts: 0, last_error: `webhook disabled: ${reason}` });
    const listed = await h.request("GET", `/api/v1/accounts/${a.accountId}/webhooks`, { token: a.adminToken });
    expect(listed.body.payload.webhooks[0].disabled_reason).toBe(reason);
    await recordEvents(h, [message(a.accountId, 1, 3)]);
    expect(deliveryRows(h)).toHaveLength(2); // nothing new for a disabled webhook
    await h.request("PATCH", `/api/v1/accounts/${a.accountId}/webhooks/${w.id}`, {
      token: a.adminToken,
      body: { name: "fixed" },
    });
    rx.behaviour = () => 200;
    await recordEvents(h, [message(a.accountId, 1, 4)]);
    await h.deps.deliverer.drain();
    expect(rx.received.map((r) => r.json.id)).toEqual([1, 4]);
  });

  test("without PARLEY_ALLOW_PRIVATE_WEBHOOKS a loopback target is refused: failed, no request made", async () => {
    const { h, a } = await setup({ allowPrivateWebhooks: false });
    const rx = receiver(() => 200);
    await createWebhook(h, a.accountId, a.adminToken, { url: rx.url });
    await recordEvents(h, [message(a.accountId, 1, 1)]);
    await h.deps.deliverer.drain();
    expect(rx.received).toEqual([]);
    const [row] = deliveryRows(h);
    expect(row).toMatchObject({
      status: "failed",
      attempts: 1,
      last_status_code: null,
      last_error: "blocked: address 127.0.0.1 is a loopback address",
    });
  });

  test("a receiver slower than the timeout: the attempt fails with a timeout and is retried", async () => {
    const { h, a } = await setup({ webhookTimeoutMs: 200 });
    let release!: () => void;
    const never = new Promise<void>((r) => (release = r)); // the first request is answered only at the end
    const rx = receiver(async (n) => {
      if (n === 1) await never;
      return 200;
    });
    await createWebhook(h, a.accountId, a.adminToken, { url: rx.url });
    await recordEvents(h, [message(a.accountId, 1, 1)]);
    await h.deps.deliverer.drain();
    expect(deliveryRows(h)[0]).toMatchObject({
      status: "pending",
      attempts: 1,
      last_status_code: null,
      last_error: "timeout after 200 ms",
    });
    await nextRound(h);
    expect(deliveryRows(h)[0]).toMatchObject({ status: "delivered", attempts: 2 });
    release();
  });

  test("an attempt that throws is recorded as a retryable failure, not restarted in a loop", async () => {
    const { h, a } = await setup();
    const rx = receiver(() => 200);
    await createWebhook(h, a.accountId, a.adminToken, { url: rx.url });
    const webhooks = h.deps.repos.webhooks;
    const readSigning = webhooks.readSigning.bind(webhooks);
    let calls = 0;
    webhooks.readSigning = function* (id) {
      if (++calls === 1) throw new Error("disk I/O error");
      return yield* readSigning(id);
    };
    await recordEvents(h, [message(a.accountId, 1, 1)]);
    await h.deps.deliverer.drain();
    // An attempt restarted at once would run by the next turn, and a second drain would wait for it.
    await new Promise((resolve) => setImmediate(resolve));
    await h.deps.deliverer.drain();
    expect(calls).toBe(1);
    expect(rx.received).toEqual([]);
    expect(deliveryRows(h)[0]).toMatchObject({
      status: "pending",
      attempts: 1,
      last_error: "internal error: disk I/O error",
    });
    await nextRound(h);
    expect(deliveryRows(h)[0]).toMatchObject({ status: "delivered", attempts: 2 });
  });
});

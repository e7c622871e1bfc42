// The delivery job sending over real HTTP (receivers on 127.0.0.1, the ManualClock skips backoff, drain() runs it):
// the signed body, sent right after commit, order per conversation, per-receiver slots, and a graceful stop.
import { afterEach, describe, expect, test } from "bun:test";
import type { Reads } from "../../src/db/reads.ts";
import type { WriteTx } from "../../src/db/tx.ts";
import { WebhookDeliverer } from "../../src/jobs/deliver-webhooks.job.ts";
import { verifyStandardSignature, standardWebhooksSecret } from "../../src/lib/webhook-signature.ts";
import { message, nextRound, readmeRecipe, receiversEach, setup } from "../helpers/delivery-fixtures.ts";
import { attemptRows, closedPort, createWebhook, deliveryRows, recordEvents } from "../helpers/webhooks.ts";

const receiver = receiversEach(afterEach);

describe("delivery", () => {
  test("POSTs the exact body, signed so that the docs/webhooks.md recipe verifies it", async () => {
    const { h, a } = await setup();
    const verify = await readmeRecipe();
    const rx = receiver(() => 200);
    const w = await createWebhook(h, a.accountId, a.adminToken, { url: rx.url, subscriptions: ["message_created"] });
    await recordEvents(h, [message(a.accountId, 3, 812)]);
    await h.deps.deliverer.drain();

    expect(rx.received).toHaveLength(1);
    const [req] = rx.received;
    const [row] = deliveryRows(h);
    expect(req!.body).toBe(row.payload);
    expect(req!.json).toEqual({ event: "message_created", id: 812, content: "message 812", conversation: { id: 3 } });
    expect(req!.headers.get("content-type")).toBe("application/json");
    expect(req!.headers.get("x-chatwoot-delivery")).toBe(row.delivery_id);
    expect(req!.headers.get("webhook-id")).toBe(row.delivery_id);
    expect(req!.headers.get("x-chatwoot-timestamp")).toBe(String(Math.floor(h.clock.nowMs() / 1000)));
    expect(verify(w.secret, req!.headers, req!.body)).toBe(true);
    expect(verify("another-secret", req!.headers, req!.body)).toBe(false);
    expect(verify(w.secret, req!.headers, req!.body.replace("812", "813"))).toBe(false);
    expect(verify(w.secret, req!.headers, req!.body, Math.floor(Date.now() / 1000) + 301)).toBe(false); // older than 5 minutes
    // Node-style header objects work too
    expect(verify(w.secret, Object.fromEntries(req!.headers) as unknown as Headers, req!.body)).toBe(true);
    // and the Standard Webhooks signature verifies with the secret those libraries expect
    expect(standardWebhooksSecret(w.secret)).toStartWith("whsec_");
    expect(
      verifyStandardSignature({
        secret: w.secret,
        body: req!.body,
        id: req!.headers.get("webhook-id"),
        timestamp: req!.headers.get("webhook-timestamp"),
        signature: req!.headers.get("webhook-signature"),
        nowUnix: Date.now() / 1000,
      }),
    ).toBe(true);

    expect(row).toMatchObject({
      status: "delivered",
      attempts: 1,
      last_status_code: 200,
      last_error: null,
      next_attempt_at_ms: null,
    });
    expect(attemptRows(h, row.id)).toEqual([
      {
        id: expect.any(Number),
        delivery_id: row.id,
        attempt: 1,
        started_at_ms: h.clock.nowMs(),
        status_code: 200,
        latency_ms: expect.any(Number),
        error: null,
        response_excerpt: "answer 200",
      },
    ]);
  });

  test("a new event is sent right after commit, without running the job by hand", async () => {
    const { h, a } = await setup();
    const rx = receiver(() => 204);
    await createWebhook(h, a.accountId, a.adminToken, { url: rx.url });
    await recordEvents(h, [{ kind: "contact_created", accountId: a.accountId, contactId: 1, payload: { id: 1 } }]);
    await rx.reached(1);
    expect(rx.received.map((r) => r.json)).toEqual([{ event: "contact_created", id: 1 }]);
  });

  test("per conversation, deliveries go in event order under retries; other conversations are not held up", async () => {
    const { h, a } = await setup();
    let inFlight = 0;
    let maxInFlight = 0;
    // Each request is held until every attempt the deliverer has started has arrived: a second attempt
    // of one conversation, started beside the first, would be in flight with it here.
    const held: (() => void)[] = [];
    const rx = receiver(async (_n, req) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise<void>((resolve) => {
        held.push(resolve);
        if (held.length >= h.deps.deliverer.inFlightCount) for (const release of held.splice(0)) release();
      });
      inFlight--;
      // the first try of conversation 1's first event fails
      return req.json.id === 1 && rx.received.filter((r) => r.json.id === 1).length === 1 ? 500 : 200;
    });
    await createWebhook(h, a.accountId, a.adminToken, { url: rx.url });
    await recordEvents(h, [
      message(a.accountId, 1, 1),
      message(a.accountId, 1, 2),
      message(a.accountId, 2, 10),
      message(a.accountId, 1, 3),
      message(a.accountId, 2, 11),
    ]);
    await h.deps.deliverer.drain();
    // 2 and 3 wait behind 1; the two conversations' attempts may arrive in either order.
    expect(rx.received.map((r) => r.json.id).sort((x, y) => x - y)).toEqual([1, 10, 11]);
    await nextRound(h);
    const ids = rx.received.map((r) => r.json.id);
    expect(ids.filter((id) => id < 10)).toEqual([1, 1, 2, 3]);
    expect(ids.filter((id) => id >= 10)).toEqual([10, 11]);
    expect(deliveryRows(h).map((r) => r.status)).toEqual(Array(5).fill("delivered"));
    expect(maxInFlight).toBe(2); // the two conversations at once, never two of one conversation
  });

  test("a receiver down for a while gets every event, in order, once it is back", async () => {
    const { h, a } = await setup();
    const port = await closedPort();
    await createWebhook(h, a.accountId, a.adminToken, { url: `http://127.0.0.1:${port}/hook` });
    const events = [1, 2, 3].flatMap((conv) => [1, 2, 3, 4].map((n) => message(a.accountId, conv, conv * 100 + n)));
    await recordEvents(h, events);
    await h.deps.deliverer.drain();
    await nextRound(h);
    const pending = deliveryRows(h);
    expect(pending.every((r) => r.status === "pending")).toBe(true);
    expect(pending.map((r) => r.attempts)).toEqual([2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0]); // only each conversation's head was tried
    expect(pending[0].last_error).toBe(`connection refused (127.0.0.1:${port})`);

    const rx = receiver(() => 200, port);
    await nextRound(h);
    expect(rx.received).toHaveLength(12);
    for (const conv of [1, 2, 3]) {
      expect(rx.received.filter((r) => r.json.conversation.id === conv).map((r) => r.json.id)).toEqual(
        [1, 2, 3, 4].map((n) => conv * 100 + n),
      );
    }
    expect(deliveryRows(h).every((r) => r.status === "delivered")).toBe(true);
  });

  test("a slow receiver holds only its own slots; another webhook is delivered meanwhile", async () => {
    const { h, a } = await setup({ webhookTimeoutMs: 3000 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let slowInFlight = 0;
    let slowMax = 0;
    const slow = receiver(async () => {
      slowMax = Math.max(slowMax, ++slowInFlight);
      await gate;
      slowInFlight--;
      return 200;
    });
    const fast = receiver(() => 200);
    await createWebhook(h, a.accountId, a.adminToken, { url: slow.url });
    await createWebhook(h, a.accountId, a.adminToken, { url: fast.url });
    await recordEvents(
      h,
      Array.from({ length: 20 }, (_, i) => message(a.accountId, i + 1, i + 1)),
    );
    await fast.reached(20);
    // every fast delivery went through while the slow receiver still held its first four
    expect(fast.received).toHaveLength(20);
    expect(slow.received).toHaveLength(4);
    expect(slowMax).toBe(4); // its per-receiver cap
    release();
    await h.deps.deliverer.drain();
    expect(slow.received).toHaveLength(20);
  });

  test("a receiver's slot is free once it answered: the next conversation's delivery goes while the first is recorded", async () => {
    const { h, a } = await setup();
    await h.deps.deliverer.stop(); // this test sends with a deliverer of its own
    const rx = receiver(() => 200);
    await createWebhook(h, a.accountId, a.adminToken, { url: rx.url });
    // The first outcome's transaction waits at a gate (on PostgreSQL, behind the requests' writes).
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let bodies = 0;
    const base = h.deps.writeTx;
    const writeTx: WriteTx = Object.assign(<T>(fn: () => T) => base(fn), {
      now: base.now,
      steps: async <T>(make: () => Reads<T>) => {
        if (bodies++ === 0) await gate;
        return base.steps(make);
      },
    });
    const deliverer = new WebhookDeliverer(
      {
        ...h.deps,
        deliveries: h.deps.repos.webhookDeliveries,
        webhooks: h.deps.repos.webhooks,
        agentBots: h.deps.repos.agentBots,
        writeTx,
        onCallbackGaveUp: () => undefined,
        committed: h.deps.commits.settled,
      },
      { timeoutMs: 5000, allowPrivate: true, perTarget: 1 },
    );
    await recordEvents(h, [message(a.accountId, 1, 1), message(a.accountId, 2, 2)]);
    const draining = deliverer.drain();
    await rx.reached(2);
    expect(deliveryRows(h)[0]).toMatchObject({ status: "pending", attempts: 0 }); // still at the gate
    open();
    await draining;
    expect(deliveryRows(h).map((r) => [r.status, r.attempts])).toEqual([
      ["delivered", 1],
      ["delivered", 1],
    ]);
    expect(rx.received.map((r) => r.json.id)).toEqual([1, 2]);
  });

  test("SIGTERM's stop() lets the attempt in flight finish and records it; nothing new starts", async () => {
    const { h, a } = await setup();
    let answer!: () => void;
    const answered = new Promise<void>((r) => (answer = r));
    const rx = receiver(async () => {
      await answered;
      return 200;
    });
    await createWebhook(h, a.accountId, a.adminToken, { url: rx.url });
    await recordEvents(h, [message(a.accountId, 1, 1)]);
    await rx.reached(1);
    expect(h.deps.deliverer.inFlightCount).toBe(1);
    let stopped = false;
    const stopping = h.deps.deliverer.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false); // stop() waits for the receiver's answer
    answer();
    await stopping;
    expect(deliveryRows(h)[0]).toMatchObject({ status: "delivered", attempts: 1 });
    await recordEvents(h, [message(a.accountId, 2, 2)]);
    // What a commit sets off runs after it settles, on a later turn: give it both before looking.
    await h.deps.commits.settled();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await h.deps.deliverer.pump()).toBe(0);
    expect(rx.received).toHaveLength(1);
  });
});

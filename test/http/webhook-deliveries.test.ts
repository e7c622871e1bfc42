// The delivery log and manual redelivery, over the API, with a real receiver on 127.0.0.1.
import { afterEach, describe, expect, test } from "bun:test";
import { createHarness } from "../helpers/harness.ts";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { createWebhook, deliveryRows, recordEvents, startReceiver, type Receiver } from "../helpers/webhooks.ts";

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

async function setup(status: number) {
  const h = createHarness({ config: { allowPrivateWebhooks: true } });
  const a = await makeAccount(h, "Acme");
  const rx = startReceiver(() => status);
  receivers.push(rx);
  const w = await createWebhook(h, a.accountId, a.adminToken, { url: rx.url });
  const base = `/api/v1/accounts/${a.accountId}/webhooks/${w.id}`;
  return { h, a, rx, w, base };
}

const event = (accountId: number, id: number) => ({
  kind: "message_created" as const,
  accountId,
  conversationId: id,
  payload: { id },
});

describe("GET /webhooks/:id/deliveries", () => {
  test("newest first with status, attempts, code, latency, error and next attempt; 25 a page", async () => {
    const { h, a, base } = await setup(503);
    await recordEvents(
      h,
      Array.from({ length: 27 }, (_, i) => event(a.accountId, i + 1)),
    );
    await h.deps.deliverer.drain();
    const rows = deliveryRows(h);
    const newest = rows[26];

    const page1 = await h.request("GET", `${base}/deliveries`, { token: a.adminToken });
    expect(page1.status).toBe(200);
    expect(page1.body.meta).toEqual({ count: 27, current_page: "1" });
    expect(page1.body.payload).toHaveLength(25);
    expect(page1.body.payload[0]).toEqual({
      id: newest.delivery_id,
      event: "message_created",
      event_id: newest.event_id,
      status: "pending",
      attempts: 1,
      max_attempts: 8,
      last_status_code: 503,
      last_latency_ms: newest.last_latency_ms,
      last_error: "HTTP 503",
      next_attempt_at: Math.floor(newest.next_attempt_at_ms / 1000),
      created_at: Math.floor(h.clock.nowMs() / 1000),
      updated_at: Math.floor(h.clock.nowMs() / 1000),
    });
    expect(typeof newest.last_latency_ms).toBe("number");
    const page2 = await h.request("GET", `${base}/deliveries?page=2`, { token: a.adminToken });
    expect(page2.body.meta.current_page).toBe("2");
    expect(page2.body.payload.map((d: { id: string }) => d.id)).toEqual([rows[1].delivery_id, rows[0].delivery_id]);
    expect((await h.request("GET", `${base}/deliveries?page=0`, { token: a.adminToken })).status).toBe(422);
  });

  test("one delivery shows its body and its attempts, newest first", async () => {
    const { h, a, rx, base } = await setup(500);
    await recordEvents(h, [event(a.accountId, 7)]);
    await h.deps.deliverer.drain();
    h.clock.advance(7000);
    rx.behaviour = () => 200;
    await h.deps.deliverer.drain();
    const [row] = deliveryRows(h);
    const r = await h.request("GET", `${base}/deliveries/${row.delivery_id}`, { token: a.adminToken });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: row.delivery_id,
      status: "delivered",
      attempts: 2,
      target_url: rx.url,
      payload: { event: "message_created", id: 7 },
    });
    expect(
      r.body.attempts_log.map(
        (x: { attempt: number; status_code: number; error: string | null; response_excerpt: string }) => [
          x.attempt,
          x.status_code,
          x.error,
          x.response_excerpt,
        ],
      ),
    ).toEqual([
      [2, 200, null, "answer 200"],
      [1, 500, "HTTP 500", "answer 500"],
    ]);
    expect((await h.request("GET", `${base}/deliveries/not-a-delivery`, { token: a.adminToken })).status).toBe(404);
  });
});

describe("POST /webhooks/:id/deliveries/:delivery_id/redeliver", () => {
  test("a failed delivery becomes pending, due now, with one more attempt allowed", async () => {
    const { h, a, rx, base } = await setup(400); // 4xx: given up at once
    await recordEvents(h, [event(a.accountId, 1)]);
    await h.deps.deliverer.drain();
    const [failed] = deliveryRows(h);
    expect(failed).toMatchObject({ status: "failed", attempts: 1, last_status_code: 400 });

    rx.behaviour = () => 200;
    await h.deps.deliverer.stop(); // so the answer below shows the state before the attempt
    const r = await h.request("POST", `${base}/deliveries/${failed.delivery_id}/redeliver`, { token: a.adminToken });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: failed.delivery_id,
      status: "pending",
      attempts: 1,
      max_attempts: 2,
      next_attempt_at: Math.floor(h.clock.nowMs() / 1000),
    });
  });

  test("redelivery is one more attempt: a delivered one that then fails is failed again, not retried for a day", async () => {
    const { h, a, rx, base } = await setup(200);
    await recordEvents(h, [event(a.accountId, 1)]);
    await h.deps.deliverer.drain();
    const [row] = deliveryRows(h);
    rx.behaviour = () => 503;
    expect(
      (await h.request("POST", `${base}/deliveries/${row.delivery_id}/redeliver`, { token: a.adminToken })).status,
    ).toBe(200);
    await h.deps.deliverer.drain();
    expect(deliveryRows(h)[0]).toMatchObject({ status: "failed", attempts: 2, max_attempts: 2, last_status_code: 503 });
    rx.behaviour = () => 200;
    await h.request("POST", `${base}/deliveries/${row.delivery_id}/redeliver`, { token: a.adminToken });
    await h.deps.deliverer.drain();
    expect(deliveryRows(h)[0]).toMatchObject({ status: "delivered", attempts: 3 });
    expect(rx.received.map((x) => x.headers.get("x-chatwoot-delivery"))).toEqual(Array(3).fill(row.delivery_id));
  });

  test("a pending delivery is tried now and keeps its schedule", async () => {
    const { h, a, rx, base } = await setup(503);
    await recordEvents(h, [event(a.accountId, 1)]);
    await h.deps.deliverer.drain();
    const [row] = deliveryRows(h);
    expect(row.next_attempt_at_ms).toBeGreaterThan(h.clock.nowMs());
    await h.request("POST", `${base}/deliveries/${row.delivery_id}/redeliver`, { token: a.adminToken });
    await h.deps.deliverer.drain();
    expect(rx.received).toHaveLength(2);
    expect(deliveryRows(h)[0]).toMatchObject({ status: "pending", attempts: 2, max_attempts: 8 });
  });

  test("a disabled webhook refuses redelivery with 409 until it is updated", async () => {
    const { h, a, base } = await setup(410);
    await recordEvents(h, [event(a.accountId, 1)]);
    await h.deps.deliverer.drain();
    const [row] = deliveryRows(h);
    const r = await h.request("POST", `${base}/deliveries/${row.delivery_id}/redeliver`, { token: a.adminToken });
    expect(r.status).toBe(409);
    expect(r.body.errors[0]).toMatchObject({ field: "webhook", code: "disabled" });
    expect(deliveryRows(h)[0].status).toBe("failed");
  });

  test("agents 403, another account 401/404, unknown delivery 404; nothing changes", async () => {
    const { h, a, base } = await setup(400);
    const other = await makeAccount(h, "Globex");
    const agent = await makeMember(h, a.accountId, "agent");
    await recordEvents(h, [event(a.accountId, 1)]);
    await h.deps.deliverer.drain();
    const [row] = deliveryRows(h);
    const path = `${base}/deliveries/${row.delivery_id}/redeliver`;
    expect((await h.request("POST", path)).status).toBe(401);
    expect((await h.request("POST", path, { token: agent.token })).status).toBe(403);
    expect((await h.request("POST", path, { token: other.adminToken })).status).toBe(401);
    const theirs = await createWebhook(h, other.accountId, other.adminToken, { url: "https://b.example.com" });
    const cross = `/api/v1/accounts/${other.accountId}/webhooks/${theirs.id}/deliveries/${row.delivery_id}/redeliver`;
    expect((await h.request("POST", cross, { token: other.adminToken })).status).toBe(404);
    expect((await h.request("POST", `${base}/deliveries/nope/redeliver`, { token: a.adminToken })).status).toBe(404);
    expect(deliveryRows(h)[0]).toMatchObject({ status: "failed", attempts: 1, max_attempts: 8 });
  });
});

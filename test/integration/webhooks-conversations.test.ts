// Webhooks meet conversations: the real routes emit events, the fan-out chooses receivers, the
// job delivers to a real receiver on 127.0.0.1 — and a callback that finally fails marks its message.
import { afterEach, describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { createHarness } from "../helpers/harness.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";
import { makeAccount } from "../helpers/factories.ts";
import { startReceiver, type Receiver } from "../helpers/webhooks.ts";

let receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  receivers = [];
});

async function setup(callbackStatus: number, wakeListeners = true) {
  const h = createHarness({ config: { allowPrivateWebhooks: true }, deps: { wakeListeners } });
  const a = await makeAccount(h);
  const base = `/api/v1/accounts/${a.accountId}`;
  const hooks = startReceiver(() => 200);
  const callback = startReceiver(() => callbackStatus);
  receivers.push(hooks, callback);
  const inbox = await h.request("POST", `${base}/inboxes`, {
    token: a.adminToken,
    body: { name: "API", channel: { type: "api", webhook_url: callback.url } },
  });
  expect(inbox.status).toBe(200);
  const wh = await h.request("POST", `${base}/webhooks`, {
    token: a.adminToken,
    body: { url: hooks.url, subscriptions: ["message_created", "conversation_status_changed"] },
  });
  expect(wh.status).toBe(200);
  const contact = await h.request("POST", `${base}/contacts`, {
    token: a.adminToken,
    body: { name: "Carla", email: "carla@example.com" },
  });
  const conv = await h.request("POST", `${base}/conversations`, {
    token: a.adminToken,
    body: { inbox_id: inbox.body.id, contact_id: contact.body.payload.contact.id },
  });
  expect(conv.status).toBe(200);
  return { h, a, base, hooks, callback, inbox: inbox.body, displayId: conv.body.id as number };
}

describe("webhooks for conversation events", () => {
  test("activity messages never reach webhooks; the status change and the real message do", async () => {
    const { h, a, base, hooks, displayId } = await setup(200);
    const sent = await h.request("POST", `${base}/conversations/${displayId}/messages`, {
      token: a.adminToken,
      body: { content: "Hello Carla" },
    });
    expect(sent.status).toBe(200);
    const resolved = await h.request("POST", `${base}/conversations/${displayId}/toggle_status`, {
      token: a.adminToken,
      body: { status: "resolved" },
    });
    expect(resolved.status).toBe(200);
    // The resolve wrote an activity message, recorded as message_created for realtime …
    const activity = h.events().filter((e) => e.kind === "message_created" && e.payload.message_type === "activity");
    expect(activity).toHaveLength(1);
    await h.deps.deliverer.drain();
    // … but the webhook got only the agent's message and the status change.
    expect(hooks.received.map((r) => [r.json.event, r.json.message_type ?? r.json.status])).toEqual([
      ["message_created", "outgoing"],
      ["conversation_status_changed", "resolved"],
    ]);
    expect(hooks.received[0]!.json.content).toBe("Hello Carla");
  });

  test("a callback the API inbox's receiver refuses marks the message failed with the reason", async () => {
    const { h, a, base, callback, displayId } = await setup(400);
    const sent = await h.request("POST", `${base}/conversations/${displayId}/messages`, {
      token: a.adminToken,
      body: { content: "Will not arrive" },
    });
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe("sent");
    await h.deps.deliverer.drain();
    await h.deps.deliverer.drain();
    const posted = callback.received.filter((r) => r.json.event === "message_created" && r.json.id === sent.body.id);
    expect(posted).toHaveLength(1);
    const list = await h.request("GET", `${base}/conversations/${displayId}/messages`, { token: a.adminToken });
    const message = list.body.payload.find((m: { id: number }) => m.id === sent.body.id);
    expect(message.status).toBe("failed");
    expect(message.content_attributes.external_error).toBe("HTTP 400");
    // Marking it failed is itself a message_updated — recorded once, and not marked again.
    const updates = h.events().filter((e) => e.kind === "message_updated" && e.payload.id === sent.body.id);
    expect(updates).toHaveLength(1);
  });
});

describe.skipIf(TEST_ENGINE !== "postgres")("PostgreSQL: sending deliveries waits on nothing in place", () => {
  test("a webhook, a callback refused and its message marked failed: nothing in place", async () => {
    const { h, a, base, hooks, callback, displayId } = await setup(400, false); // the event bus's listeners idle
    const sent = await h.request("POST", `${base}/conversations/${displayId}/messages`, {
      token: a.adminToken,
      body: { content: "Will not arrive" },
    });
    expect(sent.status).toBe(200);
    const blocking = await blockingDuring(async () => {
      await h.deps.deliverer.drain();
      await h.deps.deliverer.drain();
    });
    // The reads went to the read pool, the outcomes and the mark to awaited bodies, and each
    // delivery's stream claim to the claims' own connection (src/db/postgres/work-claims.ts).
    expect(blocking).toEqual([]);
    expect(hooks.received.map((r) => r.json.content)).toEqual(["Will not arrive"]);
    // The callback gets the inbox's events in order, the mark's message_updated last (refused too).
    expect(callback.received.map((r) => r.json.event)).toEqual([
      "conversation_created",
      "message_created",
      "conversation_updated",
      "message_updated",
    ]);
    const list = await h.request("GET", `${base}/conversations/${displayId}/messages`, { token: a.adminToken });
    const message = list.body.payload.find((m: { id: number }) => m.id === sent.body.id);
    expect([message.status, message.content_attributes.external_error]).toEqual(["failed", "HTTP 400"]);
  });
});

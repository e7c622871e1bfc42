// Fan-out: the delivery rows an event gets, written in the event's own transaction.
import { describe, expect, test } from "bun:test";
import { MAX_ATTEMPTS } from "../../src/domain/delivery-policy.ts";
import { orderKeyOf, webhookBody } from "../../src/events/listeners/webhooks.listener.ts";
import { createHarness } from "../helpers/harness.ts";
import { makeAccount } from "../helpers/factories.ts";
import { createWebhook, deliveryRows, makeInbox, recordEvents } from "../helpers/webhooks.ts";

async function setup() {
  const h = createHarness();
  await h.deps.deliverer.stop(); // rows only: nothing is sent in these tests
  const a = await makeAccount(h, "Acme");
  const b = await makeAccount(h, "Globex");
  return { h, a, b };
}

describe("webhook fan-out", () => {
  test("one row per subscribed webhook of the event's account, with the exact body", async () => {
    const { h, a, b } = await setup();
    const all = await createWebhook(h, a.accountId, a.adminToken, { url: "https://all.example.com" });
    const contactsOnly = await createWebhook(h, a.accountId, a.adminToken, {
      url: "https://contacts.example.com",
      subscriptions: ["contact_created"],
    });
    await createWebhook(h, b.accountId, b.adminToken, { url: "https://other.example.com" });
    const payload = { id: 41, content: "Hi", message_type: "incoming", event: "spoofed" };
    const [eventId] = await recordEvents(h, [
      { kind: "message_created", accountId: a.accountId, conversationId: 7, inboxId: null, payload },
    ]);

    const rows = deliveryRows(h);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      account_id: a.accountId,
      webhook_id: all.id,
      inbox_id: null,
      target_url: "https://all.example.com",
      target_key: `webhook:${all.id}`,
      order_key: "conversation:7",
      event_id: eventId,
      event_kind: "message_created",
      conversation_id: 7,
      status: "pending",
      attempts: 0,
      max_attempts: MAX_ATTEMPTS,
      next_attempt_at_ms: h.clock.nowMs(),
      last_status_code: null,
      last_error: null,
    });
    // `event` comes first and cannot be overridden by the payload
    expect(rows[0].payload).toBe('{"event":"message_created","id":41,"content":"Hi","message_type":"incoming"}');
    expect(rows[0].delivery_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    await recordEvents(h, [{ kind: "contact_created", accountId: a.accountId, contactId: 5, payload: { id: 5 } }]);
    const contactRows = deliveryRows(h, "event_kind = 'contact_created'");
    expect(contactRows.map((r) => [r.webhook_id, r.order_key])).toEqual([
      [all.id, "contact:5"],
      [contactsOnly.id, "contact:5"],
    ]);
    expect(new Set(deliveryRows(h).map((r) => r.delivery_id)).size).toBe(3);
  });

  test("internal kinds and unsubscribed kinds are never delivered", async () => {
    const { h, a } = await setup();
    await createWebhook(h, a.accountId, a.adminToken, {
      url: "https://all.example.com",
      subscriptions: ["message_created", "inbox_created"],
    });
    await recordEvents(h, [
      { kind: "conversation_resolved", accountId: a.accountId, conversationId: 1 },
      { kind: "assignee_changed", accountId: a.accountId, conversationId: 1 },
      { kind: "contact_created", accountId: a.accountId, contactId: 1 },
    ]);
    expect(deliveryRows(h)).toEqual([]);
  });

  test("rows roll back with the event", async () => {
    const { h, a } = await setup();
    await createWebhook(h, a.accountId, a.adminToken, { url: "https://all.example.com" });
    expect(() =>
      h.deps.writeTx.now(() => {
        h.deps.outbox.record({
          kind: "contact_created",
          accountId: a.accountId,
          actor: { type: "user", id: 1 },
          payload: {},
        });
        throw new Error("the change failed");
      }),
    ).toThrow("the change failed");
    expect(deliveryRows(h)).toEqual([]);
  });

  test("a disabled webhook gets nothing until it is saved again", async () => {
    const { h, a } = await setup();
    const w = await createWebhook(h, a.accountId, a.adminToken, { url: "https://all.example.com" });
    await h.deps.writeTx.steps(() => h.deps.repos.webhooks.disableSteps(w.id, "gone", 1));
    await recordEvents(h, [{ kind: "contact_created", accountId: a.accountId, contactId: 1 }]);
    expect(deliveryRows(h)).toEqual([]);
    await h.request("PATCH", `/api/v1/accounts/${a.accountId}/webhooks/${w.id}`, { token: a.adminToken, body: {} });
    await recordEvents(h, [{ kind: "contact_created", accountId: a.accountId, contactId: 1 }]);
    expect(deliveryRows(h)).toHaveLength(1);
  });
});

describe("API inbox callbacks", () => {
  test("conversation, message and typing kinds go to the API inbox's webhook_url whatever the subscriptions", async () => {
    const { h, a } = await setup();
    const api = makeInbox(h, a.accountId, { webhook_url: "https://n8n.example.com/cb" });
    await createWebhook(h, a.accountId, a.adminToken, {
      url: "https://all.example.com",
      subscriptions: ["contact_created"],
    });
    await recordEvents(h, [
      { kind: "message_created", accountId: a.accountId, inboxId: api, conversationId: 3, payload: { id: 99 } },
      { kind: "conversation_typing_on", accountId: a.accountId, inboxId: api, conversationId: 3 },
      { kind: "conversation_status_changed", accountId: a.accountId, inboxId: api, conversationId: 3 },
      { kind: "contact_created", accountId: a.accountId, inboxId: api, contactId: 4 }, // account webhooks only
      { kind: "conversation_resolved", accountId: a.accountId, inboxId: api, conversationId: 3 }, // internal
    ]);
    const callbacks = deliveryRows(h, "webhook_id IS NULL");
    expect(callbacks.map((r) => [r.event_kind, r.inbox_id, r.target_url, r.target_key, r.order_key])).toEqual([
      ["message_created", api, "https://n8n.example.com/cb", `inbox:${api}`, "conversation:3"],
      ["conversation_typing_on", api, "https://n8n.example.com/cb", `inbox:${api}`, "conversation:3"],
      ["conversation_status_changed", api, "https://n8n.example.com/cb", `inbox:${api}`, "conversation:3"],
    ]);
    expect(callbacks[0].payload).toBe('{"event":"message_created","id":99}');
    expect(deliveryRows(h, "webhook_id IS NOT NULL").map((r) => r.event_kind)).toEqual(["contact_created"]);
  });

  test("the inbox gets its own signing secret on first use, kept afterwards", async () => {
    const { h, a } = await setup();
    const api = makeInbox(h, a.accountId, { webhook_url: "https://n8n.example.com/cb" });
    const secret = () =>
      (h.deps.db.query("SELECT webhook_secret FROM inboxes WHERE id = ?").get(api) as { webhook_secret: string | null })
        .webhook_secret;
    expect(secret()).toBeNull();
    await recordEvents(h, [{ kind: "message_created", accountId: a.accountId, inboxId: api, conversationId: 1 }]);
    const first = secret();
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await recordEvents(h, [{ kind: "message_created", accountId: a.accountId, inboxId: api, conversationId: 1 }]);
    expect(secret()).toBe(first);
  });

  test("no callback for an API inbox without webhook_url, another channel type, or another account's inbox", async () => {
    const { h, a, b } = await setup();
    const noUrl = makeInbox(h, a.accountId);
    const widget = makeInbox(h, a.accountId, { channel_type: "web_widget", webhook_url: "https://w.example.com" });
    const foreign = makeInbox(h, b.accountId, { webhook_url: "https://b.example.com" });
    await recordEvents(
      h,
      [noUrl, widget, foreign].map((inboxId) => ({
        kind: "message_created" as const,
        accountId: a.accountId,
        inboxId,
        conversationId: 1,
      })),
    );
    expect(deliveryRows(h)).toEqual([]);
  });
});

describe("pure parts", () => {
  test("order keys: conversation, else contact, else inbox, else none", () => {
    expect(orderKeyOf({ conversationId: 1, contactId: 2, inboxId: 3 })).toBe("conversation:1");
    expect(orderKeyOf({ conversationId: null, contactId: 2, inboxId: 3 })).toBe("contact:2");
    expect(orderKeyOf({ conversationId: null, contactId: null, inboxId: 3 })).toBe("inbox:3");
    expect(orderKeyOf({ conversationId: null, contactId: null, inboxId: null })).toBeNull();
  });

  test("body: event merged in at the top level", () => {
    expect(webhookBody({ kind: "inbox_created", payload: { id: 1, name: "Mail", nested: { event: "kept" } } })).toBe(
      '{"event":"inbox_created","id":1,"name":"Mail","nested":{"event":"kept"}}',
    );
  });
});

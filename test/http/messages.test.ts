// POST /conversations/:id/messages: the record, Chatwoot's side effects (reopen, waiting_since,
// first reply, contact activity), idempotency, limits and events.
import { describe, expect, test } from "bun:test";
import { makeInbox } from "../helpers/directory-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { newConversation, send, world } from "../helpers/conversation-fixtures.ts";

const NOW = 1767603600;

describe("POST messages", () => {
  test("an outgoing message: the union record with sender, and message_created with Chatwoot's webhook data", async () => {
    const w = await world();
    const c = await newConversation(w, { source_id: "src-1" });
    w.h.clock.advance(2000);
    const before = w.h.lastEventId();
    const r = await send(w, c.id, {
      content: "Hello",
      content_attributes: { items: [1] },
      echo_id: "e-1",
      source_id: "ext-9",
    });
    expect(r.status).toBe(200);
    const id = r.body.id;
    expect(r.body).toEqual({
      id,
      content: "Hello",
      account_id: w.a.accountId,
      inbox_id: w.inboxId,
      conversation_id: c.id,
      message_type: 1,
      created_at: NOW + 2,
      updated_at: NOW + 2,
      private: false,
      status: "sent",
      source_id: "ext-9",
      content_type: "text",
      content_attributes: { items: [1] },
      sender_type: "User",
      sender_id: w.a.adminId,
      external_source_ids: {},
      additional_attributes: {},
      processed_message_content: "Hello",
      sentiment: {},
      conversation: {
        assignee_id: null,
        unread_count: 0,
        last_activity_at: NOW + 2,
        contact_inbox: { source_id: "src-1" },
      },
      echo_id: "e-1",
      sender: {
        id: w.a.adminId,
        name: "Admin",
        available_name: "Admin",
        avatar_url: "",
        type: "user",
        availability_status: "offline",
        thumbnail: "",
      },
    });
    const events = w.h.events(before);
    expect(events.map((e) => e.kind)).toEqual(["message_created", "conversation_updated"]);
    const p = events[0]!.payload;
    expect(p).toMatchObject({
      account: { id: w.a.accountId, name: "Acme" },
      additional_attributes: {},
      content_attributes: { items: [1] },
      content_type: "text",
      content: "Hello",
      created_at: "2026-01-05T09:00:02.000Z",
      id,
      inbox: { id: w.inboxId, name: "API" },
      message_type: "outgoing",
      private: false,
      sender: { id: w.a.adminId, name: "Admin", email: expect.stringContaining("@example.com"), type: "user" },
      source_id: "ext-9",
    });
    expect(p.conversation).toMatchObject({ id: c.id, status: "open" });
    expect((p as any).conversation.messages[0]).toMatchObject({
      id,
      content: "Hello",
      updated_at: "2026-01-05T09:00:02.000Z",
    });
    expect(events[0]!.actor).toEqual({ type: "user", id: w.a.adminId });
    // The first human reply sets first_reply_created_at and clears waiting_since.
    expect(events[1]!.payload.changed_attributes).toEqual([
      { waiting_since: { previous_value: "2026-01-05T09:00:00.000Z", current_value: null } },
      { first_reply_created_at: { previous_value: null, current_value: "2026-01-05T09:00:02.000Z" } },
      { updated_at: { previous_value: "2026-01-05T09:00:02.000Z", current_value: "2026-01-05T09:00:02.000Z" } },
    ]);
  });

  test("incoming messages (API inboxes only) come from the contact, set waiting_since and the contact's last activity", async () => {
    const w = await world();
    const c = await newConversation(w, { message: { content: "Hi, how can we help?" } });
    w.h.clock.advance(30_000);
    const before = w.h.lastEventId();
    const r = await send(w, c.id, { content: "My order", message_type: "incoming" });
    expect(r.body).toMatchObject({
      message_type: 0,
      sender_type: "Contact",
      sender_id: w.contactId,
      sender: { id: w.contactId, type: "contact", name: "Carla Customer" },
    });
    const events = w.h.events(before);
    expect(events.map((e) => e.kind)).toEqual(["message_created", "conversation_updated", "contact_updated"]);
    expect(events[0]!.payload.sender).toMatchObject({
      id: w.contactId,
      email: "carla@example.com",
      account: { id: w.a.accountId, name: "Acme" },
    });
    expect((events[1]!.payload as any).changed_attributes[0]).toEqual({
      waiting_since: { previous_value: null, current_value: "2026-01-05T09:00:30.000Z" },
    });
    expect(events[2]!.payload.changed_attributes).toEqual([
      { last_activity_at: { previous_value: null, current_value: "2026-01-05T09:00:30.000Z" } },
      { updated_at: { previous_value: "2026-01-05T09:00:00.000Z", current_value: "2026-01-05T09:00:30.000Z" } },
    ]);
    // A second incoming message leaves waiting_since alone; an agent's reply clears it (not a first reply any more).
    await send(w, c.id, { content: "Hello?", message_type: "incoming" });
    const reply = w.h.lastEventId();
    await send(w, c.id, { content: "On it" });
    expect(w.h.events(reply).map((e) => e.kind)).toEqual(["message_created", "conversation_updated"]);
    expect((await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken })).body).toMatchObject(
      { waiting_since: 0, first_reply_created_at: NOW },
    );
    const webInbox = makeInbox(w.h, w.a.accountId, { channel: "web_widget" });
    const web = await newConversation(w, { inbox_id: webInbox });
    const refused = await send(w, web.id, { content: "x", message_type: "incoming" });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { field: "message_type", message: "incoming messages are only allowed in API inboxes", code: "unsupported" },
    ]);
  });

  test("an incoming message reopens a resolved or snoozed conversation, as the system says", async () => {
    const w = await world();
    const c = await newConversation(w);
    await w.h.request("POST", `${w.base}/conversations/${c.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "resolved" },
    });
    const before = w.h.lastEventId();
    await send(w, c.id, { content: "Still broken", message_type: "incoming" });
    expect(w.h.events(before).map((e) => e.kind)).toEqual([
      "conversation_status_changed",
      "conversation_opened",
      "conversation_updated",
      "message_created",
      "message_created",
      "conversation_updated",
      "contact_updated",
    ]);
    const shown = (await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken })).body;
    expect(shown.status).toBe("open");
    // The activity message comes after the message that caused it (Chatwoot's order).
    expect(shown.messages[0]).toMatchObject({
      message_type: 2,
      content: "System reopened the conversation due to a new incoming message.",
    });
    expect(shown.last_non_activity_message).toMatchObject({ message_type: 0, content: "Still broken" });
  });

  test("a page of conversations shows each one's newest message and newest non-activity message, private notes included", async () => {
    const w = await world();
    const [a, b] = [await newConversation(w), await newConversation(w)];
    await send(w, a.id, { content: "public hello", message_type: "incoming" });
    await send(w, a.id, { content: "internal note", private: true });
    await send(w, b.id, { content: "plain question", message_type: "incoming" });
    await w.h.request("POST", `${w.base}/conversations/${b.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "resolved" },
    });
    const page = (await w.h.request("GET", `${w.base}/conversations?status=all`, { token: w.a.adminToken })).body.data
      .payload as any[];
    const of = (id: number) => page.find((c) => c.id === id);
    expect(of(a.id).messages[0]).toMatchObject({ content: "internal note", private: true });
    expect(of(a.id).last_non_activity_message).toMatchObject({ content: "internal note", private: true });
    expect(of(b.id).messages[0]).toMatchObject({ message_type: 2 });
    expect(of(b.id).last_non_activity_message).toMatchObject({ content: "plain question", message_type: 0 });
  });

  test("a snoozed conversation wakes on an incoming message; a muted (blocked) contact's resolved one stays resolved", async () => {
    const w = await world();
    const c = await newConversation(w);
    await w.h.request("POST", `${w.base}/conversations/${c.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "snoozed", snoozed_until: "2026-02-01T00:00:00Z" },
    });
    await send(w, c.id, { content: "ping", message_type: "incoming" });
    expect((await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken })).body).toMatchObject(
      { status: "open", snoozed_until: null },
    );
    await w.h.request("PATCH", `${w.base}/contacts/${w.contactId}`, { token: w.a.adminToken, body: { blocked: true } });
    await w.h.request("POST", `${w.base}/conversations/${c.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "resolved" },
    });
    await send(w, c.id, { content: "spam", message_type: "incoming" });
    expect((await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken })).body.status).toBe(
      "resolved",
    );
  });

  test("private notes: flagged private in the event, never a first reply", async () => {
    const w = await world();
    const c = await newConversation(w);
    const before = w.h.lastEventId();
    const r = await send(w, c.id, { content: "internal", private: true });
    expect(r.body.private).toBe(true);
    const events = w.h.events(before);
    expect(events.map((e) => e.kind)).toEqual(["message_created"]);
    expect(events[0]!.private).toBe(true);
    expect((events[0]!.payload as any).conversation.messages).toEqual([]);
  });

  test("Idempotency-Key: a retry returns the first message, creates nothing, records nothing", async () => {
    const w = await world();
    const c = await newConversation(w);
    const first = await send(w, c.id, { content: "once" }, w.a.adminToken, { "Idempotency-Key": "k-1" });
    const before = w.h.lastEventId();
    const retry = await send(w, c.id, { content: "once" }, w.a.adminToken, { "Idempotency-Key": "k-1" });
    expect(retry.status).toBe(200);
    expect(retry.body.id).toBe(first.body.id);
    expect(w.h.events(before)).toEqual([]);
    expect(w.h.deps.db.query("SELECT count(*) AS n FROM messages WHERE content = 'once'").get()).toEqual({ n: 1 });
    const c2 = await newConversation(w);
    const elsewhere = await send(w, c2.id, { content: "once" }, w.a.adminToken, { "Idempotency-Key": "k-1" });
    expect(elsewhere.status).toBe(409);
    // After a day the key is forgotten.
    w.h.clock.advance(24 * 3600 * 1000 + 1000);
    const later = await send(w, c.id, { content: "once" }, w.a.adminToken, { "Idempotency-Key": "k-1" });
    expect(later.body.id).not.toBe(first.body.id);
  });

  test("content up to 150,000 characters; bad fields each a 422", async () => {
    const w = await world();
    const c = await newConversation(w);
    expect((await send(w, c.id, { content: "x".repeat(150_000) })).status).toBe(200);
    const cases: [Record<string, unknown>, object][] = [
      [
        { content: "x".repeat(150_001) },
        { field: "content", message: "is too long (maximum is 150000 characters)", code: "too_long" },
      ],
      [{}, { field: "content", message: "can't be blank", code: "required" }],
      [
        { content: "x", message_type: "activity" },
        { field: "message_type", code: "invalid" },
      ],
      [
        { content: "x", content_type: "video" },
        { field: "content_type", code: "invalid" },
      ],
      [
        { content: "x", private: "maybe" },
        { field: "private", code: "invalid" },
      ],
      [
        { content: "x", content_attributes: [1] },
        { field: "content_attributes", code: "invalid" },
      ],
    ];
    for (const [body, error] of cases) {
      const r = await send(w, c.id, body);
      expect(r.status).toBe(422);
      expect(r.body.errors[0]).toMatchObject(error);
    }
  });

  test("flood guard: the 201st message within a minute is 429 with Retry-After", async () => {
    const w = await world();
    const c = await newConversation(w);
    // A hundred at once, twenty seconds later a hundred more: one by one, 200 requests on PostgreSQL
    // (each awaiting its caller on the read pool) came close to the test's time limit.
    const hundred = async (from: number) =>
      (await Promise.all(Array.from({ length: 100 }, (_, i) => send(w, c.id, { content: `m${from + i}` })))).map(
        (r) => r.status,
      );
    expect(await hundred(0)).toEqual(Array(100).fill(200));
    w.h.clock.advance(20_000);
    expect(await hundred(100)).toEqual(Array(100).fill(200));
    const r = await send(w, c.id, { content: "one too many" });
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBe("40");
    expect(r.body.description).toBe("Too many messages");
    w.h.clock.advance(40_000);
    expect((await send(w, c.id, { content: "later" })).status).toBe(200);
  }, 30_000);

  test("access: outsider agent 403, other account's conversation 404, no token 401", async () => {
    const w = await world();
    const c = await newConversation(w);
    expect((await send(w, c.id, { content: "x" }, w.outsider.token)).status).toBe(403);
    expect((await send(w, c.id, { content: "x" }, w.agent.token)).status).toBe(200);
    const other = await makeAccount(w.h, "Other");
    expect(
      (
        await w.h.request("POST", `/api/v1/accounts/${other.accountId}/conversations/${c.id}/messages`, {
          token: other.adminToken,
          body: { content: "x" },
        })
      ).status,
    ).toBe(404);
    expect(
      (await w.h.request("POST", `${w.base}/conversations/${c.id}/messages`, { body: { content: "x" } })).status,
    ).toBe(401);
  });
});

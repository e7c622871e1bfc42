// Public API messages: list, create, update — exact public
// records (spec's Message and Sender tables), what stays hidden, limits and events.
import { describe, expect, test } from "bun:test";
import {
  contactSender,
  newContact,
  NOW,
  openConversation,
  messagesPath,
  publicWorld,
  say,
  agentSays,
  userSender,
  type PublicWorld,
} from "../helpers/public-fixtures.ts";

function insertMessage(w: PublicWorld, conversationId: number, fields: Record<string, string | number | null>): number {
  const row = {
    account_id: w.a.accountId,
    inbox_id: w.inbox.id,
    conversation_id: conversationId,
    message_type: 1,
    content: "x",
    private: 0,
    sender_type: null,
    sender_id: null,
    created_at: NOW,
    updated_at: NOW,
    ...fields,
  };
  const cols = Object.keys(row);
  const r = w.h.deps.db
    .query(`INSERT INTO messages (${cols.join(", ")}) VALUES (${cols.map((c) => `$${c}`).join(", ")})`)
    .run(row as any);
  return Number(r.lastInsertRowid);
}
const internalId = (w: PublicWorld, displayId: number) =>
  (w.h.deps.db.query("SELECT id FROM conversations WHERE display_id = ?").get(displayId) as { id: number }).id;

describe("GET messages", () => {
  test("public records: contact, user and bot senders typed, templates without sender; no private notes, no activity, no attachments key", async () => {
    const w = await publicWorld();
    const c = await newContact(w, { name: "Carla", email: "carla@example.com" });
    const conv = await openConversation(w, c);
    const incoming = await say(w, c, conv.id, "Where is my order?");
    const outgoing = await agentSays(w, conv.id, { content: "Checking", content_attributes: { items: [1] } });
    await agentSays(w, conv.id, { content: "ask the warehouse", private: true });
    await w.h.request("POST", `${w.api}/conversations/${conv.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "pending" },
    });
    const bot = insertMessage(w, internalId(w, conv.id), {
      content: "Bot here",
      sender_type: "AgentBot",
      sender_id: 7,
    });
    const template = insertMessage(w, internalId(w, conv.id), {
      message_type: 3,
      content: "Pick one",
      content_type: "input_select",
      content_attributes: '{"items":[{"title":"A","value":"a"}]}',
    });
    const r = await w.h.request("GET", messagesPath(w, c, conv.id));
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      {
        id: incoming.id,
        content: "Where is my order?",
        message_type: 0,
        content_type: "text",
        content_attributes: {},
        created_at: NOW,
        conversation_id: conv.id,
        sender: contactSender({ ...c, name: "Carla" }),
      },
      {
        id: outgoing.id,
        content: "Checking",
        message_type: 1,
        content_type: "text",
        content_attributes: { items: [1] },
        created_at: NOW,
        conversation_id: conv.id,
        sender: userSender(w.a.adminId, "Admin"),
      },
      {
        id: bot,
        content: "Bot here",
        message_type: 1,
        content_type: "text",
        content_attributes: {},
        created_at: NOW,
        conversation_id: conv.id,
        sender: { id: 7, name: null, avatar_url: "", type: "agent_bot" },
      },
      {
        id: template,
        content: "Pick one",
        message_type: 3,
        content_type: "input_select",
        content_attributes: { items: [{ title: "A", value: "a" }] },
        created_at: NOW,
        conversation_id: conv.id,
      },
    ]);
  });

  test("the latest 20, oldest first; `before` pages back; a bad `before` is 422", async () => {
    const w = await publicWorld(
      {},
      {
        config: {
          publicLimits: { requestsPerMinute: 0, messagesPerMinute: 0, conversationsPerHour: 0, contactsPerHour: 0 },
        },
      },
    );
    const c = await newContact(w);
    const conv = await openConversation(w, c);
    const ids: number[] = [];
    for (let i = 1; i <= 25; i++) ids.push((await say(w, c, conv.id, `m${i}`)).id);
    const latest = await w.h.request("GET", messagesPath(w, c, conv.id));
    expect(latest.body.map((m: any) => m.content)).toEqual(ids.slice(5).map((_, i) => `m${i + 6}`));
    const older = await w.h.request("GET", `${messagesPath(w, c, conv.id)}?before=${ids[5]}`);
    expect(older.body.map((m: any) => m.id)).toEqual(ids.slice(0, 5));
    const bad = await w.h.request("GET", `${messagesPath(w, c, conv.id)}?before=abc`);
    expect([bad.status, bad.body.errors]).toEqual([
      422,
      [{ field: "before", message: "must be a message id (a positive integer)", code: "invalid" }],
    ]);
  });
});

describe("POST messages", () => {
  test("an incoming message from the contact: the public record, echo_id kept, events by the contact", async () => {
    const w = await publicWorld();
    const c = await newContact(w, { name: "Carla" });
    const conv = await openConversation(w, c);
    w.h.clock.advance(4000);
    const before = w.h.lastEventId();
    const r = await w.h.request("POST", messagesPath(w, c, conv.id), {
      body: { content: "Hi!", echo_id: "tmp-1", message_type: "outgoing", private: true },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: r.body.id,
      content: "Hi!",
      message_type: 0,
      content_type: "text",
      content_attributes: {},
      created_at: NOW + 4,
      conversation_id: conv.id,
      sender: contactSender({ ...c, name: "Carla" }),
    });
    const row = w.h.deps.db
      .query("SELECT echo_id, private, sender_type, sender_id FROM messages WHERE id = ?")
      .get(r.body.id);
    expect(row).toEqual({ echo_id: "tmp-1", private: 0, sender_type: "Contact", sender_id: c.id });
    const events = w.h.events(before);
    expect(events.map((e) => [e.kind, e.actor.type, e.actor.id])).toEqual([
      ["message_created", "contact", c.id],
      ["contact_updated", "contact", c.id],
    ]);
    expect(events[0]!.payload).toMatchObject({
      id: r.body.id,
      message_type: "incoming",
      content: "Hi!",
      sender: { id: c.id, name: "Carla" },
    });
  });

  test("a message reopens a resolved conversation", async () => {
    const w = await publicWorld();
    const c = await newContact(w);
    const conv = await openConversation(w, c);
    await w.h.request("POST", `${w.api}/conversations/${conv.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "resolved" },
    });
    await say(w, c, conv.id, "one more thing");
    expect((await w.h.request("GET", `${w.base}/contacts/${c.source_id}/conversations/${conv.id}`)).body.status).toBe(
      "open",
    );
  });

  test("blank content and content over 150,000 characters are 422; nothing is written", async () => {
    const w = await publicWorld();
    const c = await newContact(w);
    const conv = await openConversation(w, c);
    const blank = await w.h.request("POST", messagesPath(w, c, conv.id), { body: { content: "  " } });
    expect([blank.status, blank.body.errors]).toEqual([
      422,
      [{ field: "content", message: "can't be blank", code: "required" }],
    ]);
    const long = await w.h.request("POST", messagesPath(w, c, conv.id), { body: { content: "x".repeat(150_001) } });
    expect([long.status, long.body.errors]).toEqual([
      422,
      [{ field: "content", message: "is too long (maximum is 150000 characters)", code: "too_long" }],
    ]);
    expect((await w.h.request("GET", messagesPath(w, c, conv.id))).body).toEqual([]);
  });

  test("the per-conversation flood guard applies: 200 messages in a minute, then 429 with Retry-After", async () => {
    const w = await publicWorld();
    const c = await newContact(w);
    const conv = await openConversation(w, c);
    for (let i = 0; i < 200; i++) insertMessage(w, internalId(w, conv.id), { message_type: 0, created_at: NOW - 30 });
    const r = await w.h.request("POST", messagesPath(w, c, conv.id), { body: { content: "flood" } });
    expect([r.status, r.headers.get("retry-after"), r.body.errors]).toEqual([
      429,
      "30",
      [{ field: "conversation_id", message: "Too many messages; retry after 30 s", code: "rate_limited" }],
    ]);
  });
});

describe("PATCH messages/:id", () => {
  test("submitted_values (object): only name/title/value/csat_survey_response kept, other content_attributes kept; message_updated by the contact", async () => {
    const w = await publicWorld();
    const c = await newContact(w);
    const conv = await openConversation(w, c);
    const ask = await agentSays(w, conv.id, {
      content: "Email?",
      content_type: "input_email",
      content_attributes: { placeholder: "you@x" },
    });
    w.h.clock.advance(2000);
    const before = w.h.lastEventId();
    const r = await w.h.request("PATCH", `${messagesPath(w, c, conv.id)}/${ask.id}`, {
      body: {
        submitted_values: { name: "email", value: "c@example.com", evil: 1, title: { x: 1 } },
        content: "hacked",
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: ask.id,
      content: "Email?",
      message_type: 1,
      content_type: "input_email",
      content_attributes: { placeholder: "you@x", submitted_values: { name: "email", value: "c@example.com" } },
      created_at: NOW,
      conversation_id: conv.id,
      sender: userSender(w.a.adminId, "Admin"),
    });
    const events = w.h.events(before);
    expect(events.map((e) => [e.kind, e.actor])).toEqual([["message_updated", { type: "contact", id: c.id }]]);
    expect(events[0]!.payload.content_attributes).toEqual({
      placeholder: "you@x",
      submitted_values: { name: "email", value: "c@example.com" },
    });
  });

  test("an array of objects (select and form answers); PUT works too; no submitted_values changes nothing", async () => {
    const w = await publicWorld();
    const c = await newContact(w);
    const conv = await openConversation(w, c);
    const ask = await agentSays(w, conv.id, {
      content: "Pick",
      content_type: "input_select",
      content_attributes: { items: [{ title: "Yes", value: "yes" }] },
    });
    const path = `${messagesPath(w, c, conv.id)}/${ask.id}`;
    const r = await w.h.request("PUT", path, {
      body: { submitted_values: [{ title: "Yes", value: "yes" }, "junk", { name: "n", value: 3 }] },
    });
    expect(r.body.content_attributes.submitted_values).toEqual([
      { title: "Yes", value: "yes" },
      { name: "n", value: 3 },
    ]);
    const before = w.h.lastEventId();
    const none = await w.h.request("PATCH", path, { body: {} });
    expect([none.status, none.body]).toEqual([200, r.body]);
    expect(w.h.events(before)).toEqual([]);
  });

  test("bad submitted_values are 422; private notes, activity messages and unknown ids are 404", async () => {
    const w = await publicWorld();
    const c = await newContact(w);
    const conv = await openConversation(w, c);
    const ask = await agentSays(w, conv.id, { content: "Pick" });
    const bad = await w.h.request("PATCH", `${messagesPath(w, c, conv.id)}/${ask.id}`, {
      body: { submitted_values: "yes" },
    });
    expect([bad.status, bad.body.errors]).toEqual([
      422,
      [{ field: "submitted_values", message: "must be an object or an array of objects", code: "invalid" }],
    ]);
    const note = await agentSays(w, conv.id, { content: "secret", private: true });
    await w.h.request("POST", `${w.api}/conversations/${conv.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "pending" },
    });
    const activity = (w.h.deps.db.query("SELECT id FROM messages WHERE message_type = 2").get() as { id: number }).id;
    for (const id of [note.id, activity, 9999, "x"]) {
      const r = await w.h.request("PATCH", `${messagesPath(w, c, conv.id)}/${id}`, {
        body: { submitted_values: { value: "1" } },
      });
      expect([r.status, r.body.errors[0].field]).toEqual([404, "message_id"]);
    }
    expect(
      JSON.parse(
        (w.h.deps.db.query("SELECT content_attributes FROM messages WHERE id = ?").get(note.id) as any)
          .content_attributes,
      ),
    ).toEqual({});
  });
});

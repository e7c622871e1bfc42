// The website chat API (/api/v1/widget/*) as the chat page calls it: the first message opens a
// conversation, agents' replies (never private notes) come back, CSAT answers, and the walls
// between visitors; answers match their schemas.
import { describe, expect, test } from "bun:test";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { Visitor, widgetWorld, type WidgetWorld } from "../helpers/widget-fixtures.ts";

async function agentReply(w: WidgetWorld, displayId: number, content: string, isPrivate = false) {
  const r = await w.h.request("POST", `${w.api}/conversations/${displayId}/messages`, {
    token: w.agent.token,
    body: { content, private: isPrivate },
  });
  expect(r.status).toBe(200);
  return r.body;
}

describe("conversation and messages", () => {
  test("pre-chat details and the first message open a conversation; replies come back, private notes never", async () => {
    const w = await widgetWorld();
    const v = new Visitor(w);
    await v.start();
    expect((await v.call("GET", "/conversations")).body).toEqual({});
    const created = await v.call("POST", "/conversations", {
      contact: { name: "Vera Visitor", email: "vera@example.com", custom_attributes: { order: "A-17" } },
      message: { content: "Hello **there**" },
    });
    expect(created.status).toBe(200);
    expect([
      created.body.status,
      created.body.contact.name,
      created.body.contact.email,
      created.body.contact.custom_attributes,
      created.body.messages.map((m: any) => m.content),
    ]).toEqual(["open", "Vera Visitor", "vera@example.com", { order: "A-17" }, ["Hello **there**"]]);
    const id = created.body.id;
    await agentReply(w, id, "Hi Vera");
    await agentReply(w, id, "internal: VIP", true);
    const list = await v.call("GET", "/messages");
    expect(list.body.map((m: any) => [m.content, m.message_type])).toEqual([
      ["Hello **there**", 0],
      ["Hi Vera", 1],
    ]);
    expect(JSON.stringify(list.body)).not.toContain(w.agent.email);
    const second = await v.call("POST", "/messages", { message: { content: "Thanks", echo_id: "e1" } });
    expect([second.status, second.body.conversation_id, second.body.content]).toEqual([200, id, "Thanks"]);
    expect((await v.call("GET", "/conversations")).body).toMatchObject({ id, status: "open" });
  });

  test("a bad first message or bad contact details are 422 and leave no conversation and no change behind", async () => {
    const w = await widgetWorld();
    const v = new Visitor(w);
    const start = await v.start();
    for (const body of [
      { contact: { name: "Eve" }, message: { content: 12 } },
      { contact: { name: "Eve", email: "not-an-email" }, message: { content: "hi" } },
      { contact: "Eve", message: { content: "hi" } },
      {},
    ]) {
      const r = await v.call("POST", "/conversations", body);
      expect(r.status).toBe(422);
    }
    expect(w.h.deps.db.query("SELECT count(*) AS n FROM conversations").get()).toEqual({ n: 0 });
    expect((await v.call("GET", "/contact")).body.name).toBe(start.contact.name);
  });

  test("a message with no conversation yet opens one; typing, last seen and resolve act on it", async () => {
    const w = await widgetWorld();
    const v = new Visitor(w);
    await v.start();
    expect((await v.call("POST", "/conversations/toggle_typing", { typing_status: "on" })).status).toBe(404);
    const m = await v.call("POST", "/messages", { message: { content: "First" } });
    expect(m.status).toBe(200);
    const before = w.h.lastEventId();
    expect((await v.call("POST", "/conversations/toggle_typing", { typing_status: "on" })).status).toBe(200);
    expect(w.h.events(before).map((e) => e.kind)).toEqual(["conversation_typing_on"]);
    expect((await v.call("POST", "/conversations/toggle_typing", { typing_status: "sideways" })).status).toBe(422);
    expect((await v.call("POST", "/conversations/update_last_seen")).status).toBe(200);
    const resolved = await v.call("GET", "/conversations/toggle_status");
    expect([resolved.status, resolved.body.status]).toEqual([200, "resolved"]);
  });

  test("after resolve: the next message reopens, or starts a new conversation when the inbox takes none after resolution", async () => {
    for (const [allow, expectNew] of [
      [true, false],
      [false, true],
    ] as const) {
      const w = await widgetWorld({}, { allow_messages_after_resolved: allow });
      const v = new Visitor(w);
      await v.start();
      const first = await v.call("POST", "/messages", { message: { content: "one" } });
      await v.call("GET", "/conversations/toggle_status");
      const next = await v.call("POST", "/messages", { message: { content: "two" } });
      expect(next.status).toBe(200);
      expect(next.body.conversation_id !== first.body.conversation_id).toBe(expectNew);
      expect((await v.call("GET", "/conversations")).body.status).toBe("open");
    }
  });

  test("the list of the visitor's conversations: newest first, unread counts, last visible message, pages", async () => {
    const w = await widgetWorld({}, { allow_messages_after_resolved: false });
    const v = new Visitor(w);
    await v.start();
    expect((await v.call("GET", "/conversations/list")).body).toEqual({
      payload: [],
      meta: { has_next_page: false, unread_count: 0 },
    });
    const old = await v.call("POST", "/messages", { message: { content: "old question" } });
    await agentReply(w, old.body.conversation_id, "old reply");
    await v.call("POST", "/conversations/update_last_seen");
    await v.call("GET", "/conversations/toggle_status");
    w.h.clock.advance(60_000);
    const fresh = await v.call("POST", "/messages", { message: { content: "new question" } });
    w.h.clock.advance(60_000);
    await agentReply(w, fresh.body.conversation_id, "new reply");
    await agentReply(w, fresh.body.conversation_id, "a note", true);
    let r = await v.call("GET", "/conversations/list", undefined, "&page=2");
    // On PostgreSQL the visitor and the page are read on the read pool, none in place.
    const blocking = await inPlaceDuring(async () => {
      r = await v.call("GET", "/conversations/list");
    });
    expect(blocking).toEqual([]);
    expect(r.body.payload.map((c: any) => [c.id, c.status, c.unread_count, c.last_message.content])).toEqual([
      [fresh.body.conversation_id, "open", 1, "new reply"],
      [old.body.conversation_id, "resolved", 0, "old reply"],
    ]);
    expect(r.body.meta).toEqual({ has_next_page: false, unread_count: 1 });
    expect((await v.call("GET", "/conversations/list", undefined, "&page=2")).body.payload).toEqual([]);
    expect((await v.call("GET", "/conversations/list", undefined, "&page=0")).status).toBe(422);
    const other = new Visitor(w);
    await other.start();
    expect((await other.call("GET", "/conversations/list")).body.payload).toEqual([]);
  });

  test("custom attributes and labels from the SDK; only the account's labels", async () => {
    const w = await widgetWorld();
    await w.h.request("POST", `${w.api}/labels`, { token: w.a.adminToken, body: { title: "vip" } });
    const v = new Visitor(w);
    await v.start();
    await v.call("POST", "/messages", { message: { content: "hi" } });
    const set = await v.call("POST", "/conversations/set_custom_attributes", {
      custom_attributes: { plan: "pro", seats: 3 },
    });
    expect(set.body.id).toBeGreaterThan(0);
    await v.call("POST", "/conversations/destroy_custom_attributes", { custom_attribute: ["seats"] });
    const conv = await w.h.request("GET", `${w.api}/conversations/${set.body.id}`, { token: w.a.adminToken });
    expect(conv.body.custom_attributes).toEqual({ plan: "pro" });
    expect((await v.call("POST", "/labels", { label: "vip" })).body).toEqual({ labels: ["vip"] });
    const unknown = await v.call("POST", "/labels", { label: "made-up" });
    expect([unknown.status, unknown.body.errors[0].field]).toEqual([422, "label"]);
    expect((await v.call("DELETE", "/labels/vip")).body).toEqual({ labels: [] });
  });

  test("CSAT: the survey sent at resolve is answered through PATCH /messages/:id", async () => {
    const w = await widgetWorld({}, { csat_survey_enabled: true });
    const v = new Visitor(w);
    await v.start();
    const m = await v.call("POST", "/messages", { message: { content: "help" } });
    await agentReply(w, m.body.conversation_id, "done");
    const r = await w.h.request("POST", `${w.api}/conversations/${m.body.conversation_id}/toggle_status`, {
      token: w.agent.token,
      body: { status: "resolved" },
    });
    expect(r.status).toBe(200);
    const survey = (await v.call("GET", "/messages")).body.find((x: any) => x.content_type === "input_csat");
    expect(survey).toBeDefined();
    const answer = await v.call("PATCH", `/messages/${survey.id}`, {
      message: { submitted_values: { csat_survey_response: { rating: 5, feedback_message: "great" } } },
    });
    expect([answer.status, answer.body.content_attributes.submitted_values.csat_survey_response.rating]).toEqual([
      200, 5,
    ]);
    const stored = w.h.deps.db.query("SELECT rating, feedback_message FROM csat_survey_responses").all();
    expect(stored).toEqual([{ rating: 5, feedback_message: "great" }]);
  });

  test("walls: a visitor never reaches another visitor's conversation, another inbox's token opens nothing", async () => {
    const w = await widgetWorld();
    const a = new Visitor(w);
    const b = new Visitor(w);
    await a.start();
    await b.start();
    await a.call("POST", "/messages", { message: { content: "secret of A" } });
    expect((await b.call("GET", "/messages")).body).toEqual([]);
    expect((await b.call("GET", "/conversations")).body).toEqual({});
    const other = await widgetWorld();
    const stranger = new Visitor(other);
    stranger.token = a.token;
    expect((await stranger.call("GET", "/contact")).status).toBe(401);
  });
});

describe("pre-serialised answers match their schemas", () => {
  test("conversation, messages, message", async () => {
    const { Value } = await import("@sinclair/typebox/value");
    const { t } = await import("elysia");
    const { WidgetConversation, WidgetMessage } = await import("../../src/http/widget-schemas.ts");
    const exactly = (schema: any, body: unknown) => {
      expect([...Value.Errors(schema, body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
      expect(Value.Clean(schema, structuredClone(body))).toEqual(body);
    };
    const w = await widgetWorld();
    const v = new Visitor(w);
    await v.start();
    const c = await v.call("POST", "/conversations", { contact: { name: "Sam" }, message: { content: "hi" } });
    exactly(WidgetConversation, c.body);
    await agentReply(w, c.body.id, "hello Sam");
    exactly(t.Array(WidgetMessage), (await v.call("GET", "/messages")).body);
    exactly(WidgetMessage, (await v.call("POST", "/messages", { message: { content: "thanks" } })).body);
  });
});

// The website chat API (/api/v1/widget/*) as the chat page calls it: config starts a visitor,
// the first message opens a conversation, agents' replies (never private notes) come back,
// set_user checks identifier_hash, CSAT answers, and the walls between visitors.
import { describe, expect, test } from "bun:test";
import { hashOf, Visitor, widgetWorld, type WidgetWorld } from "../helpers/widget-fixtures.ts";

async function agentReply(w: WidgetWorld, displayId: number, content: string, isPrivate = false) {
  const r = await w.h.request("POST", `${w.api}/conversations/${displayId}/messages`, {
    token: w.agent.token,
    body: { content, private: isPrivate },
  });
  expect(r.status).toBe(200);
  return r.body;
}

describe("config", () => {
  test("a new visitor gets the inbox's settings, an anonymous contact and a token that opens it", async () => {
    const w = widgetWorld({ welcome_title: "Hi there", widget_color: "#112233", pre_chat_form_enabled: true });
    const v = new Visitor(w);
    const body = await v.start();
    const c = body.website_channel_config;
    expect([
      c.website_token,
      c.website_name,
      c.widget_color,
      c.welcome_title,
      c.pre_chat_form_enabled,
      c.available,
    ]).toEqual([w.websiteToken, "Acme website", "#112233", "Hi there", true, true]);
    expect(c.pre_chat_form_options.pre_chat_fields.map((f: any) => f.name)).toEqual([
      "emailAddress",
      "fullName",
      "phoneNumber",
    ]);
    expect(body.auth_token.split(".")).toHaveLength(3);
    expect(JSON.stringify(body)).not.toContain(w.inbox.hmac_token!);
    const again = await v.call("POST", "/config");
    expect([again.body.contact.id, again.body.auth_token]).toEqual([body.contact.id, body.auth_token]);
    const me = await v.call("GET", "/contact");
    expect([me.status, me.body.id, me.body.pubsub_token]).toEqual([200, body.contact.id, body.contact.pubsub_token]);
  });

  test("a wrong website_token is 404; a forged or missing X-Auth-Token is 401; a forged one on config starts over", async () => {
    const w = widgetWorld();
    const wrong = await w.h.request("POST", "/api/v1/widget/config?website_token=nope");
    expect([wrong.status, wrong.body.errors[0].field]).toEqual([404, "website_token"]);
    const v = new Visitor(w);
    expect((await v.call("GET", "/contact")).status).toBe(401);
    const body = await v.start();
    const [h, p] = body.auth_token.split(".");
    const forged = `${h}.${p}.${"A".repeat(43)}`;
    v.token = forged;
    const r = await v.call("GET", "/messages");
    expect([r.status, r.body.errors[0].field]).toEqual([401, "X-Auth-Token"]);
    const fresh = await v.call("POST", "/config");
    expect(fresh.body.contact.id).not.toBe(body.contact.id);
  });

  test("outside business hours the config says so and when the inbox opens next", async () => {
    // The manual clock starts Monday 2026-01-05 09:00 UTC; open Tuesday 10:00-12:00 in UTC only.
    const hours = [0, 1, 2, 3, 4, 5, 6].map((d) => ({
      day_of_week: d,
      closed_all_day: d !== 2,
      open_hour: d === 2 ? 10 : null,
      open_minutes: d === 2 ? 0 : null,
      close_hour: d === 2 ? 12 : null,
      close_minutes: d === 2 ? 0 : null,
    }));
    const w = widgetWorld(
      {},
      { working_hours_enabled: true, working_hours: hours, timezone: "UTC", out_of_office_message: "We are away" },
    );
    const c = (await new Visitor(w).start()).website_channel_config;
    expect([c.available, c.next_open_at, c.out_of_office_message]).toEqual([
      false,
      Date.UTC(2026, 0, 6, 10) / 1000,
      "We are away",
    ]);
  });
});

describe("conversation and messages", () => {
  test("pre-chat details and the first message open a conversation; replies come back, private notes never", async () => {
    const w = widgetWorld();
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
    const w = widgetWorld();
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
    const w = widgetWorld();
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
      const w = widgetWorld({}, { allow_messages_after_resolved: allow });
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
    const w = widgetWorld({}, { allow_messages_after_resolved: false });
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
    const r = await v.call("GET", "/conversations/list");
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
    const w = widgetWorld();
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
    const w = widgetWorld({}, { csat_survey_enabled: true });
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
    const w = widgetWorld();
    const a = new Visitor(w);
    const b = new Visitor(w);
    await a.start();
    await b.start();
    await a.call("POST", "/messages", { message: { content: "secret of A" } });
    expect((await b.call("GET", "/messages")).body).toEqual([]);
    expect((await b.call("GET", "/conversations")).body).toEqual({});
    const other = widgetWorld();
    const stranger = new Visitor(other);
    stranger.token = a.token;
    expect((await stranger.call("GET", "/contact")).status).toBe(401);
  });
});

describe("events", () => {
  test("webwidget.triggered is recorded as Chatwoot's contact_inbox webhook data; other names are 422", async () => {
    const w = widgetWorld();
    const v = new Visitor(w);
    const start = await v.start();
    const before = w.h.lastEventId();
    const r = await v.call("POST", "/events", {
      name: "webwidget.triggered",
      event_info: { browser_language: "pt-BR" },
    });
    expect(r.status).toBe(200);
    const [e] = w.h.events(before);
    expect([
      e!.kind,
      e!.payload.source_id,
      (e!.payload.contact as any).id,
      e!.payload.current_conversation,
      e!.payload.event_info,
    ]).toEqual([
      "webwidget_triggered",
      JSON.parse(Buffer.from(start.auth_token.split(".")[1], "base64url").toString()).source_id,
      start.contact.id,
      null,
      { browser_language: "pt-BR" },
    ]);
    const bad = await v.call("POST", "/events", { name: "conversation.created" });
    expect([bad.status, bad.body.errors[0].field]).toEqual([422, "name"]);
    expect(w.h.events(before)).toHaveLength(1);
  });
});

describe("set_user", () => {
  test("an anonymous visitor identified with a valid hash keeps its thread and becomes verified", async () => {
    const w = widgetWorld({ hmac_mandatory: true });
    const v = new Visitor(w);
    const start = await v.start();
    await v.call("POST", "/messages", { message: { content: "before login" } });
    const r = await v.call("PATCH", "/contact/set_user", {
      identifier: "user-42",
      identifier_hash: hashOf(w, "user-42"),
      name: "Uma",
      email: "uma@example.com",
    });
    expect(r.status).toBe(200);
    expect([r.body.id, r.body.name, r.body.email, r.body.widget_auth_token]).toEqual([
      start.contact.id,
      "Uma",
      "uma@example.com",
      undefined,
    ]);
    const verified = w.h.deps.db
      .query("SELECT hmac_verified FROM contact_inboxes WHERE contact_id = ?")
      .get(start.contact.id) as { hmac_verified: number };
    expect(verified.hmac_verified).toBe(1);
    expect((await v.call("GET", "/messages")).body.map((m: any) => m.content)).toEqual(["before login"]);
  });

  test("a forged or missing hash is 401 with hmac_mandatory and changes nothing", async () => {
    const w = widgetWorld({ hmac_mandatory: true });
    const v = new Visitor(w);
    const start = await v.start();
    for (const body of [
      { identifier: "user-42" },
      { identifier: "user-42", identifier_hash: hashOf(w, "user-43") },
      { identifier: "user-42", identifier_hash: "f".repeat(64) },
    ]) {
      const r = await v.call("PATCH", "/contact/set_user", { ...body, name: "Mallory" });
      expect([r.status, r.body.errors[0].field]).toEqual([401, "identifier_hash"]);
    }
    expect((await v.call("GET", "/contact")).body).toMatchObject({ id: start.contact.id, identifier: null });
    expect((await v.call("GET", "/contact")).body.name).not.toBe("Mallory");
  });

  test("claiming another contact's identifier needs its hash; with it the visitor switches identity and gets a new token", async () => {
    const w = widgetWorld();
    const alice = new Visitor(w);
    await alice.start();
    await alice.call("PATCH", "/contact/set_user", { identifier: "alice", email: "alice@example.com" });
    const mallory = new Visitor(w);
    await mallory.start();
    const refused = await mallory.call("PATCH", "/contact/set_user", { identifier: "alice" });
    expect([refused.status, refused.body.errors[0].field]).toEqual([401, "identifier_hash"]);
    const laptop = new Visitor(w);
    await laptop.start();
    const r = await laptop.call("PATCH", "/contact/set_user", {
      identifier: "alice",
      identifier_hash: hashOf(w, "alice"),
    });
    expect([r.status, r.body.email, typeof r.body.widget_auth_token]).toEqual([200, "alice@example.com", "string"]);
    laptop.token = r.body.widget_auth_token;
    expect((await laptop.call("GET", "/contact")).body.identifier).toBe("alice");
  });
});

describe("CORS and limits", () => {
  test("only the inbox's origins get CORS headers; preflights from others are refused", async () => {
    const w = widgetWorld({ allowed_origins: ["https://shop.example.com"] });
    const ok = new Visitor(w, { origin: "https://shop.example.com" });
    const r = await ok.call("POST", "/config");
    expect(r.headers.get("access-control-allow-origin")).toBe("https://shop.example.com");
    const evil = new Visitor(w, { origin: "https://evil.example.net" });
    expect((await evil.call("POST", "/config")).headers.get("access-control-allow-origin")).toBeNull();
    const pre = await w.h.request("OPTIONS", `/api/v1/widget/config?website_token=${w.websiteToken}`, {
      headers: { origin: "https://evil.example.net" },
    });
    expect(pre.status).toBe(403);
    const good = await w.h.request("OPTIONS", `/api/v1/widget/config?website_token=${w.websiteToken}`, {
      headers: { origin: "https://shop.example.com" },
    });
    expect([good.status, good.headers.get("access-control-allow-headers")]).toEqual([
      204,
      "content-type, x-auth-token",
    ]);
  });

  test("widget requests count against the public per-address limit", async () => {
    const w = widgetWorld({}, {}, { env: { PARLEY_PUBLIC_REQUESTS_PER_MINUTE: "3" } });
    const v = new Visitor(w);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await v.call("GET", "/contact")).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
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
    const w = widgetWorld();
    const v = new Visitor(w);
    await v.start();
    const c = await v.call("POST", "/conversations", { contact: { name: "Sam" }, message: { content: "hi" } });
    exactly(WidgetConversation, c.body);
    await agentReply(w, c.body.id, "hello Sam");
    exactly(t.Array(WidgetMessage), (await v.call("GET", "/messages")).body);
    exactly(WidgetMessage, (await v.call("POST", "/messages", { message: { content: "thanks" } })).body);
  });
});

// The website chat API's visitor (/api/v1/widget/*): config starts a visitor, set_user checks
// identifier_hash, the events it records, and CORS and the per-address limit.
import { describe, expect, test } from "bun:test";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { hashOf, Visitor, widgetWorld } from "../helpers/widget-fixtures.ts";

describe("config", () => {
  test("a new visitor gets the inbox's settings, an anonymous contact and a token that opens it", async () => {
    const w = await widgetWorld({ welcome_title: "Hi there", widget_color: "#112233", pre_chat_form_enabled: true });
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
    const w = await widgetWorld();
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
    const w = await widgetWorld(
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

describe("events", () => {
  test("webwidget.triggered is recorded as Chatwoot's contact_inbox webhook data; other names are 422", async () => {
    const w = await widgetWorld();
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
    const w = await widgetWorld({ hmac_mandatory: true });
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
    const w = await widgetWorld({ hmac_mandatory: true });
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
    const w = await widgetWorld();
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
    const w = await widgetWorld({ allowed_origins: ["https://shop.example.com"] });
    const ok = new Visitor(w, { origin: "https://shop.example.com" });
    const r = await ok.call("POST", "/config");
    expect(r.headers.get("access-control-allow-origin")).toBe("https://shop.example.com");
    const evil = new Visitor(w, { origin: "https://evil.example.net" });
    expect((await evil.call("POST", "/config")).headers.get("access-control-allow-origin")).toBeNull();
    const preflight = (origin: string, token = w.websiteToken) =>
      w.h.request("OPTIONS", `/api/v1/widget/config?website_token=${token}`, { headers: { origin } });
    let pre = await preflight("https://evil.example.net");
    let good = pre;
    let unknown = pre;
    // On PostgreSQL the inbox is read on the read pool, none in place.
    const blocking = await inPlaceDuring(async () => {
      pre = await preflight("https://evil.example.net");
      good = await preflight("https://shop.example.com");
      unknown = await preflight("https://shop.example.com", "not-a-token");
    });
    expect(blocking).toEqual([]);
    expect([pre.status, unknown.status]).toEqual([403, 403]);
    expect([good.status, good.headers.get("access-control-allow-headers")]).toEqual([
      204,
      "content-type, x-auth-token",
    ]);
  });

  test("widget requests count against the public per-address limit", async () => {
    const w = await widgetWorld({}, {}, { env: { PARLEY_PUBLIC_REQUESTS_PER_MINUTE: "3" } });
    const v = new Visitor(w);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await v.call("GET", "/contact")).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

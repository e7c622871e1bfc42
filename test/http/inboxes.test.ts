// Inboxes created and read: exact records, who may do what, tenant isolation and the events recorded.
import { describe, expect, test } from "bun:test";
import { DEFAULT_WORKING_HOURS } from "../../src/domain/working-hours.ts";
import { inboxesPair as setup } from "../helpers/account-pair.ts";
import { addInboxMember, makeInbox } from "../helpers/factories.ts";

const TOKEN = /^[1-9A-HJ-NP-Za-km-z]{24}$/;

const defaultHours = DEFAULT_WORKING_HOURS.map((e) => ({ ...e }));

/** Every key an API inbox shows an administrator, with the values of a new one. */
function apiInbox(over: Record<string, unknown>) {
  return {
    avatar_url: "",
    greeting_enabled: false,
    greeting_message: null,
    working_hours_enabled: false,
    enable_email_collect: true,
    csat_survey_enabled: false,
    csat_config: {},
    enable_auto_assignment: true,
    auto_assignment_config: {},
    out_of_office_message: null,
    working_hours: defaultHours,
    timezone: "UTC",
    callback_webhook_url: null,
    allow_messages_after_resolved: true,
    lock_to_single_conversation: false,
    sender_name_type: "friendly",
    business_name: null,
    widget_color: null,
    website_url: null,
    hmac_mandatory: false,
    welcome_title: null,
    welcome_tagline: null,
    web_widget_script: null,
    website_token: null,
    selected_feature_flags: null,
    reply_time: null,
    hmac_token: expect.stringMatching(TOKEN),
    messaging_service_sid: null,
    phone_number: null,
    webhook_url: null,
    inbox_identifier: expect.stringMatching(TOKEN),
    additional_attributes: {},
    webhook_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    provider: null,
    channel_type: "Channel::Api",
    ...over,
  };
}

describe("POST /inboxes", () => {
  test("creates an API inbox with an unguessable identifier, a webhook_url and settings; records inbox_created", async () => {
    const { h, a, base } = await setup();
    const before = h.lastEventId();
    const r = await h.request("POST", base, {
      token: a.adminToken,
      body: {
        name: "API",
        channel: { type: "api", webhook_url: "https://hooks.example.com/parley", hmac_mandatory: true },
        csat_survey_enabled: true,
        lock_to_single_conversation: true,
        greeting_enabled: true,
        greeting_message: "Hello!",
        out_of_office_message: "We are closed",
        timezone: "europe/berlin",
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(
      apiInbox({
        id: r.body.id,
        channel_id: r.body.id,
        name: "API",
        webhook_url: "https://hooks.example.com/parley",
        hmac_mandatory: true,
        csat_survey_enabled: true,
        lock_to_single_conversation: true,
        greeting_enabled: true,
        greeting_message: "Hello!",
        out_of_office_message: "We are closed",
        timezone: "Europe/Berlin",
      }),
    );
    const row = h.deps.repos.inboxes.byId(a.accountId, r.body.id)!;
    expect(row.identifier).toBe(r.body.inbox_identifier);
    expect(row.channel_type).toBe("api");

    const events = h.events(before);
    expect(events.map((e) => [e.kind, e.accountId, e.inboxId, e.actor])).toEqual([
      ["inbox_created", a.accountId, r.body.id, { type: "user", id: a.adminId }],
    ]);
    expect(events[0]!.payload).toEqual({
      id: r.body.id,
      account_id: a.accountId,
      name: "API",
      channel_type: "Channel::Api",
      allow_messages_after_resolved: true,
      lock_to_single_conversation: true,
      auto_assignment_config: {},
      enable_auto_assignment: true,
      enable_email_collect: true,
      greeting_enabled: true,
      greeting_message: "Hello!",
      csat_survey_enabled: true,
      csat_config: {},
      business_name: null,
      sender_name_type: "friendly",
      timezone: "Europe/Berlin",
      out_of_office_message: "We are closed",
      working_hours_enabled: false,
      working_hours: defaultHours,
      created_at: "2026-01-05T09:00:00.000Z",
      updated_at: "2026-01-05T09:00:00.000Z",
      channel: {
        id: r.body.id,
        type: "Channel::Api",
        identifier: r.body.inbox_identifier,
        webhook_url: "https://hooks.example.com/parley",
        hmac_mandatory: true,
        additional_attributes: {},
      },
    });
    expect(JSON.stringify(events[0]!.payload)).not.toContain(r.body.hmac_token);
    expect(JSON.stringify(events[0]!.payload)).not.toContain(r.body.webhook_secret);
    // The callback-signing secret is stored with the inbox from the start, not on first delivery.
    expect(h.deps.db.query("SELECT webhook_secret FROM inboxes WHERE id = ?").get(r.body.id)).toEqual({
      webhook_secret: r.body.webhook_secret,
    });
  });

  test("two API inboxes never share an identifier", async () => {
    const { h, a } = await setup();
    const ids = new Set([1, 2, 3].map(async (i) => (await makeInbox(h, a, { name: `I${i}` })).identifier));
    expect(ids.size).toBe(3);
  });

  test("website, email and phone inboxes show Chatwoot's channel_type names and their settings", async () => {
    const { h, a, base } = await setup();
    const web = await h.request("POST", base, {
      token: a.adminToken,
      body: { name: "Site", channel: { type: "web_widget", website_url: "https://acme.test", welcome_title: "Hi" } },
    });
    expect(web.status).toBe(200);
    expect(web.body).toMatchObject({
      channel_type: "Channel::WebWidget",
      website_url: "https://acme.test",
      widget_color: "#1f93ff",
      welcome_title: "Hi",
      welcome_tagline: null,
      reply_time: "in_a_few_minutes",
      website_token: expect.stringMatching(TOKEN),
      hmac_token: expect.stringMatching(TOKEN),
      hmac_mandatory: false,
    });
    expect(web.body).not.toHaveProperty("inbox_identifier");
    expect(web.body).not.toHaveProperty("webhook_url");

    const email = await h.request("POST", base, {
      token: a.adminToken,
      body: { inbox: { name: "Mail", channel: { type: "email", email: "Help@Acme.test" } } },
    });
    expect(email.status).toBe(200);
    expect(email.body).toMatchObject({
      channel_type: "Channel::Email",
      email: "help@acme.test",
      forward_to_email: null,
      hmac_mandatory: null,
    });
    expect(email.body).not.toHaveProperty("hmac_token");

    // Chatwoot's "sms" and the class name both name the phone channel.
    for (const type of ["phone", "sms", "Channel::Sms"]) {
      const phone = await h.request("POST", base, {
        token: a.adminToken,
        body: { name: `Phone ${type}`, channel: { type, phone_number: "+14155550100" } },
      });
      expect(phone.status).toBe(200);
      expect(phone.body).toMatchObject({ channel_type: "Channel::Sms", phone_number: "+14155550100" });
    }
    const spaced = await h.request("POST", base, {
      token: a.adminToken,
      body: { name: "Phone spaced", channel: { type: "sms", phone_number: "+1 (415) 555-0101" } },
    });
    expect([spaced.status, spaced.body.phone_number]).toEqual([200, "+14155550101"]);
  });

  test("a url-encoded body with Rails keys works like JSON", async () => {
    const { h, a, base } = await setup();
    const r = await h.request("POST", base, {
      token: a.adminToken,
      form: {
        "inbox[name]": "Form",
        "inbox[channel][type]": "api",
        "inbox[csat_survey_enabled]": "true",
        "inbox[channel][hmac_mandatory]": "1",
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: "Form", csat_survey_enabled: true, hmac_mandatory: true });
  });
});

describe("GET /inboxes and /inboxes/:id", () => {
  test("administrators see every inbox by name; agents only their member inboxes; hmac_token for administrators only", async () => {
    const { h, a, agent, base } = await setup();
    const zeta = await makeInbox(h, a, { name: "zeta" });
    const alpha = await makeInbox(h, a, { name: "Alpha" });
    await addInboxMember(h, a, zeta.id, agent.userId);

    const all = await h.request("GET", base, { token: a.adminToken });
    expect(all.status).toBe(200);
    expect(all.body.payload.map((i: { name: string }) => i.name)).toEqual(["Alpha", "zeta"]);
    expect(all.body.payload[0].hmac_token).toBe(alpha.hmac_token!);

    const mine = await h.request("GET", base, { token: agent.token });
    expect(mine.body.payload.map((i: { id: number }) => i.id)).toEqual([zeta.id]);
    expect(mine.body.payload[0]).not.toHaveProperty("hmac_token");
    expect(mine.body.payload[0].inbox_identifier).toBe(zeta.identifier!);

    const shown = await h.request("GET", `${base}/${zeta.id}`, { token: agent.token });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual(
      apiInbox({
        id: zeta.id,
        channel_id: zeta.id,
        name: "zeta",
        hmac_token: undefined,
        webhook_secret: undefined,
        inbox_identifier: zeta.identifier,
      }),
    );
    expect(shown.body).not.toHaveProperty("hmac_token");
    expect(shown.body).not.toHaveProperty("webhook_secret");

    const notMine = await h.request("GET", `${base}/${alpha.id}`, { token: agent.token });
    expect(notMine.status).toBe(403);
    expect(notMine.body.errors).toEqual([
      { field: "role", message: "You are not a member of this inbox", code: "forbidden" },
    ]);
  });
});

describe("inbox authorization and tenant isolation", () => {
  test("no token 401, another account's token 401, agents 403 on writes, before validation, nothing changes", async () => {
    const { h, a, b, agent, base } = await setup();
    const inbox = await makeInbox(h, a, { name: "Kept" });
    const before = h.lastEventId();
    const cases: [string, string, unknown][] = [
      ["POST", base, { name: "X", channel: { type: "api" } }],
      ["PATCH", `${base}/${inbox.id}`, { name: "Changed" }],
      ["DELETE", `${base}/${inbox.id}`, undefined],
    ];
    for (const [method, path, body] of cases) {
      expect((await h.request(method, path, { body })).status).toBe(401);
      expect((await h.request(method, path, { token: b.adminToken, body })).status).toBe(401);
      const refused = await h.request(method, path, { token: agent.token, body: body && { name: 5 } });
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0].code).toBe("forbidden");
    }
    expect((await h.request("GET", base)).status).toBe(401);
    expect((await h.request("GET", `${base}/${inbox.id}`, { token: b.adminToken })).status).toBe(401);
    expect(h.deps.repos.inboxes.list(a.accountId).map((i) => i.name)).toEqual(["Kept"]);
    expect(h.events(before)).toEqual([]);
  });

  test("another account's inbox id is 404 for show, update and delete, and stays untouched", async () => {
    const { h, a, b, base } = await setup();
    const theirs = await makeInbox(h, b, { name: "Theirs" });
    const before = h.lastEventId();
    for (const [method, body] of [["GET"], ["PATCH", { name: "Mine now" }], ["DELETE"]] as [string, unknown][]) {
      const r = await h.request(method, `${base}/${theirs.id}`, { token: a.adminToken, body });
      expect(r.status).toBe(404);
      expect(r.body.errors).toEqual([
        { field: "id", message: `no inbox ${theirs.id} in this account`, code: "not_found" },
      ]);
    }
    expect((await h.request("GET", `${base}/abc`, { token: a.adminToken })).status).toBe(404);
    expect(h.deps.repos.inboxes.byId(b.accountId, theirs.id)!.name).toBe("Theirs");
    expect(h.events(before)).toEqual([]);
  });
});

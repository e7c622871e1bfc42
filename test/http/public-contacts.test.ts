// Public API: the inbox's public info, contact create (reuse by identifier, email, phone; random
// names; source_id), show, update, and the 404s of unknown or foreign identifiers.
import { describe, expect, test } from "bun:test";
import { makeInbox } from "../helpers/factories.ts";
import { contactPath, newContact, NOW, publicWorld } from "../helpers/public-fixtures.ts";

const count = (w: Awaited<ReturnType<typeof publicWorld>>, table: string) =>
  (w.h.deps.db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe("GET /public/api/v1/inboxes/:inbox_identifier", () => {
  test("the inbox's public information, Chatwoot's keys", async () => {
    const w = await publicWorld({
      greeting_enabled: true,
      csat_survey_enabled: true,
      timezone: "Europe/Berlin",
      channel: { type: "api", hmac_mandatory: true },
    });
    const r = await w.h.request("GET", w.base);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      identifier: w.inbox.identifier,
      identity_validation_enabled: true,
      name: "Website",
      timezone: "Europe/Berlin",
      working_hours: JSON.parse(w.inbox.working_hours),
      working_hours_enabled: false,
      csat_survey_enabled: true,
      greeting_enabled: true,
    });
    expect(r.body.working_hours[1]).toEqual({
      day_of_week: 1,
      closed_all_day: false,
      open_all_day: false,
      open_hour: 9,
      open_minutes: 0,
      close_hour: 17,
      close_minutes: 0,
    });
  });

  test("unknown identifiers, other channels and suspended accounts are 404 alike", async () => {
    const w = await publicWorld();
    const widget = await makeInbox(w.h, w.a, {
      name: "Site",
      channel: { type: "web_widget", website_url: "https://example.com" },
    });
    const notFound = {
      description: "Inbox not found",
      error: "Inbox not found",
      errors: [{ field: "inbox_identifier", message: "no API inbox with this identifier", code: "not_found" }],
    };
    for (const id of ["nope", JSON.parse(widget.channel_attributes).website_token]) {
      const r = await w.h.request("GET", `/public/api/v1/inboxes/${id}`);
      expect([r.status, r.body]).toEqual([404, notFound]);
    }
    w.h.deps.db.query("UPDATE accounts SET status = 'suspended' WHERE id = ?").run(w.a.accountId);
    expect((await w.h.request("GET", w.base)).status).toBe(404);
    expect((await w.h.request("POST", `${w.base}/contacts`, { body: { name: "X" } })).status).toBe(404);
  });
});

describe("POST contacts", () => {
  test("a new contact: the identity record, a readable random name, contact_created by the contact itself", async () => {
    const w = await publicWorld();
    const before = w.h.lastEventId();
    const r = await w.h.request("POST", `${w.base}/contacts`, {
      body: { email: "Vera@Example.com", custom_attributes: { plan: "pro" } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      source_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      pubsub_token: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{24}$/),
      id: expect.any(Number),
      name: expect.stringMatching(/^[a-z]+-[a-z]+-\d{4}$/),
      email: "vera@example.com",
      phone_number: null,
    });
    const events = w.h.events(before);
    expect(events.map((e) => [e.kind, e.actor])).toEqual([["contact_created", { type: "contact", id: r.body.id }]]);
    expect(events[0]!.payload).toMatchObject({
      id: r.body.id,
      email: "vera@example.com",
      custom_attributes: { plan: "pro" },
      account: { id: w.a.accountId, name: "Acme" },
    });
    const ci = w.h.deps.db.query("SELECT * FROM contact_inboxes WHERE source_id = ?").get(r.body.source_id) as any;
    expect(ci).toMatchObject({
      contact_id: r.body.id,
      inbox_id: w.inbox.id,
      hmac_verified: 0,
      pubsub_token: r.body.pubsub_token,
    });
  });

  test("all fields; a given source_id is the identifier, and sending it again returns the same identity", async () => {
    const w = await publicWorld();
    const body = {
      source_id: "visitor-42",
      name: "Vera Visitor",
      identifier: "u-42",
      phone_number: "+14155550100",
      avatar_url: "https://example.com/v.png",
    };
    const first = await newContact(w, body);
    expect(first).toMatchObject({
      source_id: "visitor-42",
      name: "Vera Visitor",
      email: null,
      phone_number: "+14155550100",
    });
    const again = await newContact(w, { source_id: "visitor-42", name: "Someone Else" });
    expect(again).toEqual(first);
    expect(count(w, "contacts")).toBe(1);
    expect(count(w, "contact_inboxes")).toBe(1);
  });

  test("an existing account contact is reused: by identifier first, then email, then phone; no contact_created", async () => {
    const w = await publicWorld();
    const make = async (body: Record<string, unknown>) =>
      (await w.h.request("POST", `${w.api}/contacts`, { token: w.a.adminToken, body })).body.payload.contact
        .id as number;
    const byIdentifier = await make({ name: "Ida", identifier: "ida-1" });
    const byEmail = await make({ name: "Emma", email: "emma@example.com" });
    const byPhone = await make({ name: "Phil", phone_number: "+14155550111" });
    const before = w.h.lastEventId();
    expect(await newContact(w, { identifier: "ida-1", email: "emma@example.com" })).toMatchObject({
      id: byIdentifier,
      name: "Ida",
      email: null,
    });
    expect(await newContact(w, { email: "EMMA@example.com", phone_number: "+14155550111" })).toMatchObject({
      id: byEmail,
      name: "Emma",
    });
    expect(await newContact(w, { phone_number: "+14155550111", name: "Not Phil" })).toMatchObject({
      id: byPhone,
      name: "Phil",
    });
    expect(w.h.events(before)).toEqual([]);
    expect(count(w, "contacts")).toBe(3);
    // Each reuse is its own identity in the inbox.
    expect(count(w, "contact_inboxes")).toBe(3);
  });

  test("bad fields are 422 per field and create nothing", async () => {
    const w = await publicWorld();
    const r = await w.h.request("POST", `${w.base}/contacts`, {
      body: { email: "not-an-email", phone_number: "12", source_id: 7 },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([{ field: "source_id", message: "must be a string", code: "invalid" }]);
    const r2 = await w.h.request("POST", `${w.base}/contacts`, { body: { email: "not-an-email", phone_number: "12" } });
    expect(r2.body.errors).toEqual([
      { field: "email", message: "is not a valid email address", code: "invalid" },
      {
        field: "phone_number",
        message: "should be in e164 format: a + and the country code, then the number (e.g. +14155550100)",
        code: "invalid",
      },
    ]);
    expect(count(w, "contacts")).toBe(0);
    expect(count(w, "contact_inboxes")).toBe(0);
  });

  test("url-encoded bodies and fields nested under `contact` work as JSON does", async () => {
    const w = await publicWorld();
    const r = await w.h.request("POST", `${w.base}/contacts`, {
      form: { "contact[name]": "Fay Form", "contact[custom_attributes][tier]": "gold" },
    });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe("Fay Form");
    const row = w.h.deps.db.query("SELECT custom_attributes FROM contacts WHERE id = ?").get(r.body.id) as {
      custom_attributes: string;
    };
    expect(JSON.parse(row.custom_attributes)).toEqual({ tier: "gold" });
  });
});

describe("GET / PATCH / PUT contacts/:contact_identifier", () => {
  test("show answers the identity record; unknown or another inbox's identifier is 404", async () => {
    const w = await publicWorld();
    const c = await newContact(w, { name: "Sam", email: "sam@example.com" });
    expect((await w.h.request("GET", contactPath(w, c))).body).toEqual(c);
    const other = await makeInbox(w.h, w.a, { name: "Other" });
    const otherBase = `/public/api/v1/inboxes/${other.identifier}`;
    for (const path of [`${w.base}/contacts/nope`, contactPath(w, c, otherBase)]) {
      const r = await w.h.request("GET", path);
      expect([r.status, r.body.errors]).toEqual([
        404,
        [{ field: "contact_identifier", message: "no contact with this identifier in this inbox", code: "not_found" }],
      ]);
    }
  });

  test("update changes name, email, phone, custom attributes (merged) — not the identifier or blocked — as the contact", async () => {
    const w = await publicWorld();
    const c = await newContact(w, { name: "Sam", identifier: "sam-1", custom_attributes: { a: 1 } });
    w.h.clock.advance(5000);
    const before = w.h.lastEventId();
    const r = await w.h.request("PATCH", contactPath(w, c), {
      body: {
        name: "Samantha",
        email: "sam@example.com",
        phone_number: "+14155550123",
        custom_attributes: { b: 2 },
        identifier: "hijack",
        blocked: true,
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...c, name: "Samantha", email: "sam@example.com", phone_number: "+14155550123" });
    const row = w.h.deps.db.query("SELECT * FROM contacts WHERE id = ?").get(c.id) as any;
    expect([row.identifier, row.blocked, JSON.parse(row.custom_attributes), row.updated_at]).toEqual([
      "sam-1",
      0,
      { a: 1, b: 2 },
      NOW + 5,
    ]);
    const events = w.h.events(before);
    expect(events.map((e) => [e.kind, e.actor])).toEqual([["contact_updated", { type: "contact", id: c.id }]]);
    expect(events[0]!.payload.changed_attributes).toContainEqual({
      name: { previous_value: "Sam", current_value: "Samantha" },
    });
    const put = await w.h.request("PUT", contactPath(w, c), { body: { name: "Sam P." } });
    expect([put.status, put.body.name]).toEqual([200, "Sam P."]);
  });

  test("an email or phone number another contact holds is 422 taken, and nothing changes", async () => {
    const w = await publicWorld();
    await newContact(w, { email: "taken@example.com" });
    const c = await newContact(w, { name: "Sam" });
    const before = w.h.lastEventId();
    const r = await w.h.request("PATCH", contactPath(w, c), { body: { name: "New", email: "taken@example.com" } });
    expect([r.status, r.body.errors]).toEqual([
      422,
      [{ field: "email", message: "has already been taken", code: "taken" }],
    ]);
    expect((await w.h.request("GET", contactPath(w, c))).body.name).toBe("Sam");
    expect(w.h.events(before)).toEqual([]);
  });
});

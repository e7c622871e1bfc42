// Contacts created through HTTP: exact records, Chatwoot's validation and uniqueness rules, an
// inbox identity, authorization, tenant isolation, and the contact_created event.
import { describe, expect, test } from "bun:test";
import { contactsPair as setup } from "../helpers/account-pair.ts";
import { addInboxMember, makeInbox } from "../helpers/directory-fixtures.ts";

const NOW = 1767603600; // the harness clock: 2026-01-05T09:00:00Z

describe("POST /contacts", () => {
  test("creates a contact: {payload:{contact, contact_inbox}} with the exact record and a contact_created event", async () => {
    const { h, a, create } = await setup();
    const before = h.lastEventId();
    const r = await create({
      name: "Carla Diaz",
      email: "Carla@Example.COM",
      phone_number: "+14155550100",
      identifier: "crm-1",
      additional_attributes: { company_name: "Initech", city: "Lyon" },
      custom_attributes: { plan: "pro" },
    });
    expect(r.status).toBe(200);
    const id = r.body.payload.contact.id;
    expect(r.body).toEqual({
      payload: {
        contact: {
          additional_attributes: { company_name: "Initech", city: "Lyon" },
          availability_status: "offline",
          email: "carla@example.com",
          id,
          name: "Carla Diaz",
          phone_number: "+14155550100",
          blocked: false,
          identifier: "crm-1",
          thumbnail: "",
          custom_attributes: { plan: "pro" },
          created_at: NOW,
          contact_inboxes: [],
        },
        contact_inbox: { inbox: null, source_id: null },
      },
    });
    const events = h.events(before);
    expect(events.map((e) => e.kind)).toEqual(["contact_created"]);
    expect(events[0]!.actor).toEqual({ type: "user", id: a.adminId });
    expect(events[0]!.contactId).toBe(id);
    expect(events[0]!.payload).toEqual({
      account: { id: a.accountId, name: "Acme" },
      additional_attributes: { company_name: "Initech", city: "Lyon" },
      avatar: "",
      custom_attributes: { plan: "pro" },
      email: "carla@example.com",
      id,
      identifier: "crm-1",
      name: "Carla Diaz",
      phone_number: "+14155550100",
      thumbnail: "",
      blocked: false,
    });
  });

  test("with inbox_id and source_id the contact gets its identity in that inbox", async () => {
    const { h, a, create } = await setup();
    const inboxId = makeInbox(h, a.accountId, { name: "Web API" });
    const r = await create({ name: "Dan", inbox_id: inboxId, source_id: "visitor-7" });
    expect(r.status).toBe(200);
    const inbox = {
      id: inboxId,
      avatar_url: "",
      channel_id: inboxId,
      name: "Web API",
      channel_type: "Channel::Api",
      provider: null,
    };
    expect(r.body.payload.contact_inbox).toEqual({ inbox, source_id: "visitor-7" });
    expect(r.body.payload.contact.contact_inboxes).toEqual([{ source_id: "visitor-7", inbox }]);
  });

  test("fields nested under `contact` and form bodies are read too", async () => {
    const { h, base, a } = await setup();
    const nested = await h.request("POST", base, {
      token: a.adminToken,
      body: { contact: { name: "Nested", email: "n@example.com" } },
    });
    expect(nested.body.payload.contact).toMatchObject({ name: "Nested", email: "n@example.com" });
    const form = await h.request("POST", base, {
      token: a.adminToken,
      form: { name: "Form", phone_number: "+33612345678", blocked: "true" },
    });
    expect(form.body.payload.contact).toMatchObject({ name: "Form", phone_number: "+33612345678", blocked: true });
  });

  test("phone numbers typed with spaces, dashes, dots or parentheses are stored in E.164", async () => {
    const { create } = await setup();
    const typed = ["+351 912 000 111", "+1 (415) 555-0100", "+44.20.7946.0958"];
    const stored = [];
    for (const phone_number of typed) {
      const r = await create({ name: phone_number, phone_number });
      expect(r.status).toBe(200);
      stored.push(r.body.payload.contact.phone_number);
    }
    expect(stored).toEqual(["+351912000111", "+14155550100", "+442079460958"]);
    const local = await create({ phone_number: "(415) 555-0100" });
    expect(local.status).toBe(422);
    expect(local.body.errors).toEqual([
      {
        field: "phone_number",
        message: "should be in e164 format: a + and the country code, then the number (e.g. +14155550100)",
        code: "invalid",
      },
    ]);
  });

  test("bad values: one 422 item per field, nothing stored, no event", async () => {
    const { h, create } = await setup();
    const before = h.lastEventId();
    const r = await create({ email: "not-an-email", phone_number: "0612345678", custom_attributes: "x" });
    expect(r.status).toBe(422);
    expect(r.body.errors).toContainEqual({ field: "custom_attributes", message: expect.any(String), code: "invalid" });
    const r2 = await create({ email: "not-an-email", phone_number: "0612345678" });
    expect(r2.status).toBe(422);
    expect(r2.body.errors).toEqual([
      { field: "email", message: "is not a valid email address", code: "invalid" },
      {
        field: "phone_number",
        message: "should be in e164 format: a + and the country code, then the number (e.g. +14155550100)",
        code: "invalid",
      },
    ]);
    const r3 = await create({ name: "x".repeat(256) });
    expect(r3.body.errors).toEqual([
      { field: "name", message: "is too long (maximum is 255 characters)", code: "too_long" },
    ]);
    expect(h.deps.db.query("SELECT count(*) AS n FROM contacts").get()).toEqual({ n: 0 });
    expect(h.events(before)).toEqual([]);
  });

  test("email (any case), phone and identifier are unique per account: 422 taken; other accounts may reuse them", async () => {
    const { h, b, create } = await setup();
    expect((await create({ email: "dup@example.com", phone_number: "+14155550100", identifier: "X-1" })).status).toBe(
      200,
    );
    const r = await create({ email: "DUP@example.com", phone_number: "+14155550100", identifier: "X-1" });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      { field: "email", message: "has already been taken", code: "taken" },
      { field: "phone_number", message: "has already been taken", code: "taken" },
      { field: "identifier", message: "has already been taken", code: "taken" },
    ]);
    const other = await h.request("POST", `/api/v1/accounts/${b.accountId}/contacts`, {
      token: b.adminToken,
      body: { email: "dup@example.com", identifier: "X-1" },
    });
    expect(other.status).toBe(200);
  });

  test("an inbox of another account is 404; an agent's inbox outside their membership is 403", async () => {
    const { h, a, b, agent, create } = await setup();
    const foreign = makeInbox(h, b.accountId);
    expect((await create({ name: "X", inbox_id: foreign })).status).toBe(404);
    const mine = makeInbox(h, a.accountId);
    const r = await create({ name: "Y", inbox_id: mine }, agent.token);
    expect(r.status).toBe(403);
    addInboxMember(h, mine, agent.userId);
    expect((await create({ name: "Y", inbox_id: mine }, agent.token)).status).toBe(200);
  });
});

// Contacts through HTTP: create/show/update/delete with exact records, Chatwoot's validation and
// uniqueness rules, authorization, tenant isolation, and the contact_* events.
import { describe, expect, test } from "bun:test";
import { addInboxMember, makeInbox } from "../helpers/directory-fixtures.ts";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";

function setup() {
  const h = createHarness();
  const a = makeAccount(h, "Acme");
  const b = makeAccount(h, "Globex");
  const agent = makeMember(h, a.accountId, "agent", "Ann");
  const base = `/api/v1/accounts/${a.accountId}/contacts`;
  const create = (body: unknown, token = a.adminToken) => h.request("POST", base, { token, body });
  return { h, a, b, agent, base, create };
}

const NOW = 1767603600; // the harness clock: 2026-01-05T09:00:00Z

describe("POST /contacts", () => {
  test("creates a contact: {payload:{contact, contact_inbox}} with the exact record and a contact_created event", async () => {
    const { h, a, create } = setup();
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
    const { h, a, create } = setup();
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
    const { h, base, a } = setup();
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
    const { create } = setup();
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
    const { h, create } = setup();
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
    const { h, b, create } = setup();
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
    const { h, a, b, agent, create } = setup();
    const foreign = makeInbox(h, b.accountId);
    expect((await create({ name: "X", inbox_id: foreign })).status).toBe(404);
    const mine = makeInbox(h, a.accountId);
    const r = await create({ name: "Y", inbox_id: mine }, agent.token);
    expect(r.status).toBe(403);
    addInboxMember(h, mine, agent.userId);
    expect((await create({ name: "Y", inbox_id: mine }, agent.token)).status).toBe(200);
  });
});

describe("GET/PATCH/DELETE /contacts/:id", () => {
  test("show is {payload: Contact}; unknown, malformed and other-account ids are 404", async () => {
    const { h, b, base, a, create } = setup();
    const id = (await create({ name: "Eve", email: "eve@example.com" })).body.payload.contact.id;
    const r = await h.request("GET", `${base}/${id}`, { token: a.adminToken });
    expect(r.status).toBe(200);
    expect(r.body.payload).toMatchObject({ id, name: "Eve", email: "eve@example.com", contact_inboxes: [] });
    for (const bad of ["999", "abc", "0"])
      expect((await h.request("GET", `${base}/${bad}`, { token: a.adminToken })).status).toBe(404);
    const otherId = (
      await h.request("POST", `/api/v1/accounts/${b.accountId}/contacts`, {
        token: b.adminToken,
        body: { name: "Theirs" },
      })
    ).body.payload.contact.id;
    const foreign = await h.request("GET", `${base}/${otherId}`, { token: a.adminToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors).toEqual([
      { field: "id", message: `no contact ${otherId} in this account`, code: "not_found" },
    ]);
  });

  test("update merges custom and additional attributes and records contact_updated with Chatwoot's changed_attributes", async () => {
    const { h, base, a, create } = setup();
    const id = (
      await create({
        name: "Finn",
        custom_attributes: { plan: "free", seats: 1 },
        additional_attributes: { city: "Oslo" },
      })
    ).body.payload.contact.id;
    h.clock.advance(5000);
    const before = h.lastEventId();
    const r = await h.request("PATCH", `${base}/${id}`, {
      token: a.adminToken,
      body: { name: "Finn B", custom_attributes: { plan: "pro" } },
    });
    expect(r.status).toBe(200);
    expect(r.body.payload).toMatchObject({
      name: "Finn B",
      custom_attributes: { plan: "pro", seats: 1 },
      additional_attributes: { city: "Oslo" },
    });
    const [e] = h.events(before);
    expect(e!.kind).toBe("contact_updated");
    expect(e!.payload.changed_attributes).toEqual([
      { name: { previous_value: "Finn", current_value: "Finn B" } },
      { custom_attributes: { previous_value: { plan: "free", seats: 1 }, current_value: { plan: "pro", seats: 1 } } },
      { updated_at: { previous_value: "2026-01-05T09:00:00.000Z", current_value: "2026-01-05T09:00:05.000Z" } },
    ]);
    expect(e!.payload.name).toBe("Finn B");
    // PUT is the same; an update that changes nothing records nothing.
    const again = h.lastEventId();
    expect((await h.request("PUT", `${base}/${id}`, { token: a.adminToken, body: { name: "Finn B" } })).status).toBe(
      200,
    );
    expect(h.events(again)).toEqual([]);
  });

  test("update validates like create and refuses a value another contact holds", async () => {
    const { h, base, a, create } = setup();
    await create({ email: "taken@example.com" });
    const id = (await create({ name: "G" })).body.payload.contact.id;
    const r = await h.request("PATCH", `${base}/${id}`, {
      token: a.adminToken,
      body: { email: "taken@example.com", blocked: "maybe" },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { field: string }) => e.field)).toEqual(["blocked"]);
    const r2 = await h.request("PATCH", `${base}/${id}`, { token: a.adminToken, body: { email: "taken@example.com" } });
    expect(r2.body.errors).toEqual([{ field: "email", message: "has already been taken", code: "taken" }]);
    expect(h.deps.repos.contacts.byId(a.accountId, id)!.email).toBeNull();
  });

  test("delete: administrators only (403 for agents), 200 with an empty body, then 404", async () => {
    const { h, base, a, agent, create } = setup();
    const id = (await create({ name: "Hal" })).body.payload.contact.id;
    const refused = await h.request("DELETE", `${base}/${id}`, { token: agent.token });
    expect(refused.status).toBe(403);
    expect(h.deps.repos.contacts.byId(a.accountId, id)).not.toBeNull();
    const before = h.lastEventId();
    const r = await h.request("DELETE", `${base}/${id}`, { token: a.adminToken });
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
    expect(h.events(before).map((e) => e.kind)).toEqual(["contact_deleted"]);
    expect((await h.request("GET", `${base}/${id}`, { token: a.adminToken })).status).toBe(404);
    expect((await h.request("DELETE", `${base}/${id}`, { token: a.adminToken })).status).toBe(404);
  });

  test("no token 401, another account's token 401, agents read and write contacts", async () => {
    const { h, base, b, agent, create } = setup();
    const id = (await create({ name: "Ida" })).body.payload.contact.id;
    expect((await h.request("GET", `${base}/${id}`)).status).toBe(401);
    expect((await h.request("GET", `${base}/${id}`, { token: b.adminToken })).status).toBe(401);
    expect(
      (await h.request("PATCH", `${base}/${id}`, { token: agent.token, body: { name: "Ida A" } })).body.payload.name,
    ).toBe("Ida A");
  });

  test("destroy_custom_attributes removes keys", async () => {
    const { h, base, a, create } = setup();
    const id = (await create({ name: "Jo", custom_attributes: { a: 1, b: 2, c: 3 } })).body.payload.contact.id;
    const r = await h.request("POST", `${base}/${id}/destroy_custom_attributes`, {
      token: a.adminToken,
      body: { custom_attributes: ["a", "c"] },
    });
    expect(r.body.payload.custom_attributes).toEqual({ b: 2 });
  });
});

describe("contact inboxes and labels", () => {
  test("POST contact_inboxes creates the identity; a source_id of another contact in the inbox is 422", async () => {
    const { h, base, a, create } = setup();
    const inboxId = makeInbox(h, a.accountId, { name: "API" });
    const c1 = (await create({ name: "K" })).body.payload.contact.id;
    const c2 = (await create({ name: "L" })).body.payload.contact.id;
    const r = await h.request("POST", `${base}/${c1}/contact_inboxes`, {
      token: a.adminToken,
      body: { inbox_id: inboxId, source_id: "s-1", hmac_verified: true },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      source_id: "s-1",
      inbox: {
        id: inboxId,
        avatar_url: "",
        channel_id: inboxId,
        name: "API",
        channel_type: "Channel::Api",
        provider: null,
      },
    });
    expect(h.deps.db.query("SELECT hmac_verified FROM contact_inboxes WHERE source_id = 's-1'").get()).toEqual({
      hmac_verified: 1,
    });
    const taken = await h.request("POST", `${base}/${c2}/contact_inboxes`, {
      token: a.adminToken,
      body: { inbox_id: inboxId, source_id: "s-1" },
    });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual([{ field: "source_id", message: "should be unique", code: "taken" }]);
    const generated = await h.request("POST", `${base}/${c2}/contact_inboxes`, {
      token: a.adminToken,
      body: { inbox_id: inboxId },
    });
    expect(generated.body.source_id).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await h.request("POST", `${base}/${c2}/contact_inboxes`, { token: a.adminToken, body: {} });
    expect(missing.body.errors).toEqual([{ field: "inbox_id", message: "can't be blank", code: "required" }]);
  });

  test("labels: replace and list, in the order given, without duplicates", async () => {
    const { h, base, a, create } = setup();
    const id = (await create({ name: "M" })).body.payload.contact.id;
    const set = await h.request("POST", `${base}/${id}/labels`, {
      token: a.adminToken,
      body: { labels: ["vip", "billing", "vip", " "] },
    });
    expect(set.body).toEqual({ payload: ["vip", "billing"] });
    const replaced = await h.request("POST", `${base}/${id}/labels`, {
      token: a.adminToken,
      body: { labels: ["billing", "churn"] },
    });
    expect(replaced.body).toEqual({ payload: ["billing", "churn"] });
    expect((await h.request("GET", `${base}/${id}/labels`, { token: a.adminToken })).body).toEqual({
      payload: ["billing", "churn"],
    });
    const bad = await h.request("POST", `${base}/${id}/labels`, { token: a.adminToken, body: { labels: [1, 2] } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({ field: "labels", code: "invalid" });
  });
});

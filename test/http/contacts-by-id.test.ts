// One contact through HTTP (/contacts/:id): show/update/delete with exact records, validation,
// authorization, tenant isolation and the contact_* events; its contact_inboxes and labels.
import { describe, expect, test } from "bun:test";
import { contactsPair as setup } from "../helpers/account-pair.ts";
import { makeInbox } from "../helpers/directory-fixtures.ts";

describe("GET/PATCH/DELETE /contacts/:id", () => {
  test("show is {payload: Contact}; unknown, malformed and other-account ids are 404", async () => {
    const { h, b, base, a, create } = await setup();
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
    const { h, base, a, create } = await setup();
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
    const { h, base, a, create } = await setup();
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
    const { h, base, a, agent, create } = await setup();
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
    const { h, base, b, agent, create } = await setup();
    const id = (await create({ name: "Ida" })).body.payload.contact.id;
    expect((await h.request("GET", `${base}/${id}`)).status).toBe(401);
    expect((await h.request("GET", `${base}/${id}`, { token: b.adminToken })).status).toBe(401);
    expect(
      (await h.request("PATCH", `${base}/${id}`, { token: agent.token, body: { name: "Ida A" } })).body.payload.name,
    ).toBe("Ida A");
  });

  test("destroy_custom_attributes removes keys", async () => {
    const { h, base, a, create } = await setup();
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
    const { h, base, a, create } = await setup();
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
    const { h, base, a, create } = await setup();
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

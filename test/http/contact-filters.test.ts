// POST contacts/filter: Chatwoot's payload, AND/OR chaining, paging, custom attributes, phone
// matching with and without "+", and 422s that name the item.
import { describe, expect, test } from "bun:test";
import { world, type World } from "../helpers/conversation-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { cond } from "../helpers/record-filter-fixtures.ts";

async function contact(w: World, body: Record<string, unknown>): Promise<number> {
  const r = await w.h.request("POST", `${w.base}/contacts`, { token: w.a.adminToken, body });
  expect(r.status).toBe(200);
  return r.body.payload.contact.id;
}

async function filterContacts(w: World, payload: unknown, page?: number) {
  return w.h.request("POST", `${w.base}/contacts/filter${page ? `?page=${page}` : ""}`, {
    token: w.a.adminToken,
    body: { payload },
  });
}

describe("POST contacts/filter", () => {
  test("phone numbers match with and without the leading +, OR-chained with identifier (Evolution's lookup)", async () => {
    const w = await world();
    const id = await contact(w, {
      name: "Wendy",
      phone_number: "+5511999990000",
      identifier: "5511999990000@s.whatsapp.net",
    });
    await contact(w, { name: "Other", phone_number: "+5511888880000" });
    for (const value of ["5511999990000", "+5511999990000"]) {
      const r = await filterContacts(w, [
        cond("identifier", "equal_to", [value], "OR"),
        cond("phone_number", "equal_to", [value]),
      ]);
      expect(r.status).toBe(200);
      expect(r.body.meta).toEqual({ count: 1, current_page: "1" });
      expect(r.body.payload.map((c: any) => c.id)).toEqual([id]);
      expect(r.body.payload[0].phone_number).toBe("+5511999990000");
    }
    const none = await filterContacts(w, [cond("phone_number", "equal_to", ["5511000000000"])]);
    expect(none.body).toEqual({ meta: { count: 0, current_page: "1" }, payload: [] });
  });

  test("the count is kept while nothing changes, and follows the next change", async () => {
    const w = await world();
    const filter = [cond("email", "contains", ["@acme.test"])];
    await contact(w, { name: "Ann", email: "ann@acme.test" });
    for (let i = 0; i < 2; i++) expect((await filterContacts(w, filter)).body.meta.count).toBe(1);
    const bob = await contact(w, { name: "Bob", email: "bob@acme.test" });
    const after = await filterContacts(w, filter);
    expect(after.body.meta.count).toBe(2);
    expect(after.body.payload.map((c: any) => c.id)).toContain(bob);
    const renamed = await w.h.request("PUT", `${w.base}/contacts/${bob}`, {
      token: w.a.adminToken,
      body: { email: "bob@other.test" },
    });
    expect(renamed.status).toBe(200);
    expect((await filterContacts(w, filter)).body.meta.count).toBe(1);
  });

  test("AND binds before OR, as Chatwoot's SQL does", async () => {
    const w = await world();
    const ann = await contact(w, { name: "Ann", email: "ann@acme.test", additional_attributes: { city: "Paris" } });
    await contact(w, { name: "Bob", email: "bob@acme.test", additional_attributes: { city: "Paris" } });
    const cy = await contact(w, { name: "Cy", email: "cy@other.test", additional_attributes: { city: "Rome" } });
    // name = Ann AND city = Paris OR email contains other  →  (Ann ∧ Paris) ∨ other
    const r = await filterContacts(w, [
      cond("name", "equal_to", ["ann"], "AND"),
      cond("city", "equal_to", ["paris"], "OR"),
      cond("email", "contains", ["other"]),
    ]);
    expect(r.status).toBe(200);
    expect(r.body.payload.map((c: any) => c.id)).toEqual([ann, cy]);
  });

  test("labels, blocked, is_present and custom attributes", async () => {
    const w = await world();
    const vip = await contact(w, { name: "Vip", email: "vip@x.test", custom_attributes: { plan: "Gold", seats: 12 } });
    const plain = await contact(w, {
      name: "Plain",
      email: "plain@x.test",
      custom_attributes: { plan: "free", seats: 2 },
    });
    await w.h.request("POST", `${w.base}/contacts/${vip}/labels`, { token: w.a.adminToken, body: { labels: ["vip"] } });
    const labelled = await filterContacts(w, [cond("labels", "equal_to", ["vip"])]);
    expect(labelled.body.payload.map((c: any) => c.id)).toEqual([vip]);
    const unlabelled = await filterContacts(w, [cond("labels", "is_not_present", [])]);
    expect(unlabelled.body.payload.map((c: any) => c.id)).toEqual([w.contactId, plain]);
    const custom = await filterContacts(w, [
      cond("plan", "equal_to", ["gold"], null, { custom_attribute_type: "contact_attribute" }),
    ]);
    expect(custom.body.payload.map((c: any) => c.id)).toEqual([vip]);
    const numeric = await filterContacts(w, [
      cond("seats", "is_greater_than", [5], null, { custom_attribute_type: "contact_attribute" }),
    ]);
    expect(numeric.body.payload.map((c: any) => c.id)).toEqual([vip]);
    const notGold = await filterContacts(w, [
      cond("plan", "not_equal_to", ["gold"], null, { custom_attribute_type: "contact_attribute" }),
    ]);
    // A contact without the attribute is "not equal" too.
    expect(notGold.body.payload.map((c: any) => c.id)).toEqual([w.contactId, plain]);
    const blocked = await filterContacts(w, [cond("blocked", "equal_to", [false])]);
    expect(blocked.body.meta.count).toBe(3);
  });

  test("pages of 15 with the total in meta.count", async () => {
    const w = await world();
    for (let i = 0; i < 20; i++) await contact(w, { name: `Bulk ${i}`, email: `bulk${i}@x.test` });
    const first = await filterContacts(w, [cond("email", "contains", ["bulk"])]);
    expect(first.body.meta).toEqual({ count: 20, current_page: "1" });
    expect(first.body.payload).toHaveLength(15);
    const second = await filterContacts(w, [cond("email", "contains", ["bulk"])], 2);
    expect(second.body.meta).toEqual({ count: 20, current_page: "2" });
    expect(second.body.payload.map((c: any) => c.name)).toEqual([
      "Bulk 15",
      "Bulk 16",
      "Bulk 17",
      "Bulk 18",
      "Bulk 19",
    ]);
  });

  test("dates: is_greater_than a day, days_before", async () => {
    const w = await world();
    w.h.clock.set(Date.UTC(2026, 2, 10));
    const recent = await contact(w, { name: "Recent", email: "recent@x.test" });
    const after = await filterContacts(w, [cond("created_at", "is_greater_than", ["2026-03-01"])]);
    expect(after.body.payload.map((c: any) => c.id)).toEqual([recent]);
    w.h.clock.set(Date.UTC(2026, 2, 20));
    const older = await filterContacts(w, [cond("created_at", "days_before", ["5"])]);
    expect(older.body.payload.map((c: any) => c.id)).toContain(recent);
  });

  const bad: [string, unknown, string, string][] = [
    [
      "unknown attribute",
      [cond("shoe_size", "equal_to", ["9"])],
      "payload.0.attribute_key",
      "Invalid attribute key - shoe_size",
    ],
    [
      "unknown operator",
      [cond("name", "sounds_like", ["x"])],
      "payload.0.filter_operator",
      "Invalid operator - sounds_like",
    ],
    [
      "operator not for the attribute",
      [cond("name", "is_greater_than", ["x"])],
      "payload.0.filter_operator",
      "is_greater_than does not apply to name",
    ],
    [
      "wrong value type",
      [cond("name", "equal_to", ["a"], "AND"), cond("created_at", "is_greater_than", ["yesterday"])],
      "payload.1.values",
      "created_at takes a date",
    ],
    [
      "bad query operator",
      [cond("name", "equal_to", ["a"], "XOR"), cond("email", "equal_to", ["b"])],
      "payload.0.query_operator",
      "Invalid query operator",
    ],
    ["empty payload", [], "payload", "must be a non-empty array"],
    ["no values", [cond("name", "equal_to", [])], "payload.0.values", "at least one value"],
    ["object values", [cond("name", "equal_to", [{ a: 1 }])], "payload.0.values", "name takes strings or numbers"],
    [
      "bad custom key",
      [cond("a'b", "equal_to", ["x"], null, { custom_attribute_type: "contact_attribute" })],
      "payload.0.attribute_key",
      "Invalid attribute key",
    ],
  ];
  for (const [name, payload, field, message] of bad) {
    test(`422 ${name}, naming the item`, async () => {
      const w = await world();
      const r = await filterContacts(w, payload);
      expect(r.status).toBe(422);
      expect(r.body.errors[0].field).toBe(field);
      expect(r.body.errors[0].message).toContain(message);
    });
  }

  test("a payload that is not a list, or items that are not objects, is a 422", async () => {
    const w = await world();
    for (const payload of ["name", 7, [5], [null], { attribute_key: "name" }]) {
      const r = await filterContacts(w, payload);
      expect(r.status).toBe(422);
      expect(r.body.errors.length).toBeGreaterThan(0);
    }
  });

  test("another account's contacts are never matched", async () => {
    const w = await world();
    const other = await makeAccount(w.h, "Globex");
    const r = await w.h.request("POST", `/api/v1/accounts/${other.accountId}/contacts/filter`, {
      token: other.adminToken,
      body: { payload: [cond("email", "contains", ["carla"])] },
    });
    expect(r.status).toBe(200);
    expect(r.body.meta.count).toBe(0);
    const foreign = await w.h.request("POST", `/api/v1/accounts/${other.accountId}/contacts/filter`, {
      token: w.a.adminToken,
      body: { payload: [cond("email", "contains", ["carla"])] },
    });
    expect(foreign.status).toBe(401);
  });
});

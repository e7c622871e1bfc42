// POST contacts/filter and conversations/filter: Chatwoot's payload, AND/OR chaining, paging,
// custom attributes, phone matching with and without "+", and 422s that name the item.
import { describe, expect, test } from "bun:test";
import { newConversation, world, type World } from "../helpers/conversation-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { makeTeam } from "../helpers/directory-fixtures.ts";

async function contact(w: World, body: Record<string, unknown>): Promise<number> {
  const r = await w.h.request("POST", `${w.base}/contacts`, { token: w.a.adminToken, body });
  expect(r.status).toBe(200);
  return r.body.payload.contact.id;
}

const cond = (
  attribute_key: string,
  filter_operator: string,
  values: unknown,
  query_operator: string | null = null,
  extra: Record<string, unknown> = {},
) => ({
  attribute_key,
  filter_operator,
  values,
  query_operator,
  ...extra,
});

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
    const other = makeAccount(w.h, "Globex");
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

describe("POST conversations/filter", () => {
  test("status and labels, 25 a page, counts in meta, newest activity first", async () => {
    const w = await world();
    const teamId = makeTeam(w.h, w.a.accountId, "billing");
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      w.h.clock.advance(1000);
      ids.push(
        (
          await newConversation(w, {
            team_id: i > 0 ? teamId : undefined,
            assignee_id: i === 0 ? w.a.adminId : undefined,
          })
        ).id,
      );
    }
    await w.h.request("POST", `${w.base}/conversations/${ids[1]}/labels`, {
      token: w.a.adminToken,
      body: { labels: ["billing"] },
    });
    await w.h.request("POST", `${w.base}/conversations/${ids[0]}/labels`, {
      token: w.a.adminToken,
      body: { labels: ["billing"] },
    });
    await w.h.request("POST", `${w.base}/conversations/${ids[2]}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "resolved" },
    });
    const r = await w.h.request("POST", `${w.base}/conversations/filter`, {
      token: w.a.adminToken,
      body: { payload: [cond("status", "equal_to", ["open"], "AND"), cond("labels", "equal_to", ["billing"])] },
    });
    expect(r.status).toBe(200);
    expect(r.body.payload.map((c: any) => c.id)).toEqual([ids[1], ids[0]]);
    expect(r.body.meta).toEqual({
      mine_count: 1,
      assigned_count: 1,
      unassigned_count: 1,
      all_count: 2,
      count: 2,
      current_page: "1",
    });
    expect(r.body.payload[0].labels).toEqual(["billing"]);
    const team = await w.h.request("POST", `${w.base}/conversations/filter`, {
      token: w.a.adminToken,
      body: { payload: [cond("team_id", "equal_to", [teamId])] },
    });
    expect(team.body.meta.all_count).toBe(2);
    const all = await w.h.request("POST", `${w.base}/conversations/filter`, {
      token: w.a.adminToken,
      body: { payload: [cond("status", "equal_to", ["all"])] },
    });
    expect(all.body.meta.all_count).toBe(3);
  });

  test("an agent sees only conversations of their inboxes", async () => {
    const w = await world();
    await newConversation(w);
    const asAgent = await w.h.request("POST", `${w.base}/conversations/filter`, {
      token: w.agent.token,
      body: { payload: [cond("status", "equal_to", ["open"])] },
    });
    expect(asAgent.body.meta.all_count).toBe(1);
    const asOutsider = await w.h.request("POST", `${w.base}/conversations/filter`, {
      token: w.outsider.token,
      body: { payload: [cond("status", "equal_to", ["open"])] },
    });
    expect(asOutsider.status).toBe(200);
    expect(asOutsider.body.meta.all_count).toBe(0);
  });

  test("422 for a bad status, a non-numeric id, a contact attribute", async () => {
    const w = await world();
    const cases: [unknown[], string, string][] = [
      [[cond("status", "equal_to", ["closed"])], "payload.0.values", "status"],
      [[cond("assignee_id", "equal_to", ["me"])], "payload.0.values", "whole numbers"],
      [[cond("email", "equal_to", ["a@b.c"])], "payload.0.attribute_key", "Invalid attribute key - email"],
      [
        [cond("plan", "equal_to", ["x"], null, { custom_attribute_type: "contact_attribute" })],
        "payload.0.custom_attribute_type",
        "conversation_attribute",
      ],
    ];
    for (const [payload, field, message] of cases) {
      const r = await w.h.request("POST", `${w.base}/conversations/filter`, {
        token: w.a.adminToken,
        body: { payload },
      });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].field).toBe(field);
      expect(r.body.errors[0].message).toContain(message);
    }
  });
});

describe("fuzzed payloads", () => {
  test("300 random payloads: each is a 200 or a 422 in the error envelope, never a 500, and nothing is written", async () => {
    const w = await world();
    await newConversation(w);
    // A small deterministic generator (mulberry32), so a failure replays.
    let seed = 20261124;
    const rnd = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const scalars = [
      null,
      0,
      -1,
      1.5,
      "",
      "open",
      "2026-01-01",
      "x".repeat(300),
      true,
      "%",
      "_",
      "'; DROP TABLE contacts; --",
      "+5511",
      [],
      {},
      ["a"],
      [1, "b"],
      [{ a: 1 }],
      [null],
    ];
    const keys = [
      "name",
      "email",
      "phone_number",
      "status",
      "labels",
      "created_at",
      "display_id",
      "assignee_id",
      "blocked",
      "plan",
      "",
      7,
      null,
    ];
    const ops = [
      "equal_to",
      "not_equal_to",
      "contains",
      "does_not_contain",
      "is_present",
      "is_not_present",
      "is_greater_than",
      "is_less_than",
      "days_before",
      "nope",
      3,
      null,
    ];
    const item = () =>
      rnd() < 0.1
        ? pick(scalars)
        : {
            attribute_key: pick(keys),
            filter_operator: pick(ops),
            values: pick(scalars),
            query_operator: pick(["AND", "or", "XOR", null, 1]),
            ...(rnd() < 0.3
              ? { custom_attribute_type: pick(["contact_attribute", "conversation_attribute", "", 5]) }
              : {}),
          };
    const before = w.h.lastEventId();
    for (let i = 0; i < 300; i++) {
      const payload = rnd() < 0.1 ? pick(scalars) : Array.from({ length: 1 + Math.floor(rnd() * 4) }, item);
      const path = pick(["/contacts/filter", "/conversations/filter"]);
      const r = await w.h.request("POST", `${w.base}${path}`, { token: w.a.adminToken, body: { payload } });
      if (r.status !== 200) {
        expect({ i, status: r.status }).toEqual({ i, status: 422 });
        expect(r.body.errors.length).toBeGreaterThan(0);
        expect(typeof r.body.errors[0].field).toBe("string");
      } else {
        expect(typeof r.body.meta.count).toBe("number");
      }
    }
    expect(w.h.lastEventId()).toBe(before);
    expect((w.h.deps.db.query("SELECT COUNT(*) AS n FROM contacts").get() as { n: number }).n).toBe(1);
  });
});

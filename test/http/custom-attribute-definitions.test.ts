// Custom attribute definitions (Chatwoot's shapes), and values checked against them when contacts
// and conversations are written. Administrators define; agents read; other accounts see nothing.
import { describe, expect, test } from "bun:test";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";

const path = (w: { base: string }) => `${w.base}/custom_attribute_definitions`;

describe("custom attribute definitions", () => {
  test("create, list by model (name or number), show, update, delete", async () => {
    const w = await world();
    const plan = await w.h.request("POST", path(w), {
      token: w.a.adminToken,
      body: {
        custom_attribute_definition: {
          attribute_display_name: "Plan",
          attribute_key: "plan",
          attribute_model: "contact_attribute",
          attribute_display_type: "list",
          attribute_values: ["free", "pro"],
        },
      },
    });
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({
      attribute_display_name: "Plan",
      attribute_key: "plan",
      attribute_model: "contact_attribute",
      attribute_display_type: "list",
      attribute_values: ["free", "pro"],
      regex_pattern: null,
      default_value: null,
    });
    expect(plan.body.created_at).toBe("2026-01-05T09:00:00.000Z");
    const order = await w.h.request("POST", path(w), {
      token: w.a.adminToken,
      body: { attribute_display_name: "Order", attribute_key: "order_id", attribute_display_type: 1 },
    });
    expect([order.body.attribute_model, order.body.attribute_display_type]).toEqual([
      "conversation_attribute",
      "number",
    ]);

    const contactOnes = await w.h.request("GET", `${path(w)}?attribute_model=1`, { token: w.agent.token });
    expect(contactOnes.body.map((d: any) => d.attribute_key)).toEqual(["plan"]);
    const byName = await w.h.request("GET", `${path(w)}?attribute_model=conversation_attribute`, {
      token: w.agent.token,
    });
    expect(byName.body.map((d: any) => d.attribute_key)).toEqual(["order_id"]);
    expect((await w.h.request("GET", path(w), { token: w.agent.token })).body).toHaveLength(2);
    expect((await w.h.request("GET", `${path(w)}/${plan.body.id}`, { token: w.agent.token })).body.attribute_key).toBe(
      "plan",
    );

    const changed = await w.h.request("PUT", `${path(w)}/${plan.body.id}`, {
      token: w.a.adminToken,
      body: { attribute_values: ["free", "pro", "enterprise"], attribute_description: "billing plan" },
    });
    expect([
      changed.status,
      changed.body.attribute_values.length,
      changed.body.attribute_description,
      changed.body.attribute_key,
    ]).toEqual([200, 3, "billing plan", "plan"]);
    const gone = await w.h.request("DELETE", `${path(w)}/${order.body.id}`, { token: w.a.adminToken });
    expect(gone.status).toBe(204);
    expect((await w.h.request("GET", `${path(w)}/${order.body.id}`, { token: w.a.adminToken })).status).toBe(404);
  });

  test("bad definitions are 422s naming the field; agents may not write; other accounts get 404", async () => {
    const w = await world();
    const post = (body: unknown, token = w.a.adminToken) => w.h.request("POST", path(w), { token, body });
    const cases: [unknown, string, string][] = [
      [{ attribute_key: "x" }, "attribute_display_name", "can't be blank"],
      [
        { attribute_display_name: "X", attribute_key: "has space" },
        "attribute_key",
        "may only contain letters, numbers, dots, dashes and underscores",
      ],
      [
        { attribute_display_name: "X", attribute_key: "email", attribute_model: "contact_attribute" },
        "attribute_key",
        "is a standard contact attribute",
      ],
      [
        { attribute_display_name: "X", attribute_key: "x", attribute_display_type: "color" },
        "attribute_display_type",
        "must be one of: text, number, currency, percent, link, date, list, checkbox",
      ],
      [
        { attribute_display_name: "X", attribute_key: "x", attribute_display_type: "list" },
        "attribute_values",
        "can't be empty for a list",
      ],
      [
        { attribute_display_name: "X", attribute_key: "x", regex_pattern: "([a-z" },
        "regex_pattern",
        "is not a valid regular expression",
      ],
      [
        { attribute_display_name: "X", attribute_key: "x", attribute_model: "company" },
        "attribute_model",
        "must be conversation_attribute (0) or contact_attribute (1)",
      ],
    ];
    for (const [body, field, message] of cases) {
      const r = await post(body);
      expect([r.status, r.body.errors[0].field, r.body.errors[0].message]).toEqual([422, field, message]);
    }
    expect((await post({ attribute_display_name: "Tier", attribute_key: "tier" })).status).toBe(200);
    const taken = await post({ attribute_display_name: "Tier again", attribute_key: "tier" });
    expect([taken.status, taken.body.errors[0]]).toEqual([
      422,
      { field: "attribute_key", message: "has already been taken", code: "taken" },
    ]);
    expect(
      (await post({ attribute_display_name: "Tier", attribute_key: "tier", attribute_model: "contact_attribute" }))
        .status,
    ).toBe(200); // per model
    expect((await post({ attribute_display_name: "Mine", attribute_key: "mine" }, w.agent.token)).status).toBe(403);
    const other = await makeAccount(w.h, "Other");
    const list = await w.h.request("GET", path(w), { token: w.a.adminToken });
    expect(
      (
        await w.h.request(
          "GET",
          `/api/v1/accounts/${other.accountId}/custom_attribute_definitions/${list.body[0].id}`,
          { token: other.adminToken },
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await w.h.request("GET", `/api/v1/accounts/${other.accountId}/custom_attribute_definitions`, {
          token: other.adminToken,
        })
      ).body,
    ).toEqual([]);
  });

  test("values written to contacts and conversations are checked against their definitions", async () => {
    const w = await world();
    const define = (body: Record<string, unknown>) =>
      w.h.request("POST", path(w), { token: w.a.adminToken, body: { attribute_display_name: "X", ...body } });
    await define({
      attribute_key: "plan",
      attribute_model: "contact_attribute",
      attribute_display_type: "list",
      attribute_values: ["free", "pro"],
    });
    await define({ attribute_key: "vip", attribute_model: "contact_attribute", attribute_display_type: "checkbox" });
    await define({ attribute_key: "order_total", attribute_display_type: "currency" });
    await define({ attribute_key: "site", attribute_display_type: "link" });
    await define({ attribute_key: "due", attribute_display_type: "date" });
    await define({
      attribute_key: "ref",
      attribute_display_type: "text",
      regex_pattern: "^ORD-\\d+$",
      regex_cue: "must look like ORD-123",
    });

    const contact = `${w.base}/contacts/${w.contactId}`;
    const bad = await w.h.request("PATCH", contact, {
      token: w.a.adminToken,
      body: { custom_attributes: { plan: "gold", vip: "yes", free_text: 42 } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { field: "custom_attributes.plan", message: "must be one of: free, pro", code: "invalid" },
      { field: "custom_attributes.vip", message: "must be true or false", code: "invalid" },
    ]);
    const good = await w.h.request("PATCH", contact, {
      token: w.a.adminToken,
      body: { custom_attributes: { plan: "pro", vip: true, free_text: 42 } },
    });
    expect(good.body.payload.custom_attributes).toEqual({ plan: "pro", vip: true, free_text: 42 });
    const created = await w.h.request("POST", `${w.base}/contacts`, {
      token: w.a.adminToken,
      body: { name: "Zed", custom_attributes: { plan: "gold" } },
    });
    expect([created.status, created.body.errors[0].field]).toEqual([422, "custom_attributes.plan"]);

    const c = await newConversation(w);
    const set = (custom: Record<string, unknown>) =>
      w.h.request("POST", `${w.base}/conversations/${c.id}/custom_attributes`, {
        token: w.a.adminToken,
        body: { custom_attributes: custom },
      });
    const wrong = await set({ order_total: "lots", site: "ftp://x", due: "soon", ref: "123" });
    expect(wrong.body.errors.map((e: any) => [e.field, e.message])).toEqual([
      ["custom_attributes.order_total", "must be a number"],
      ["custom_attributes.site", "must be a link starting with http:// or https://"],
      ["custom_attributes.due", "must be a date (YYYY-MM-DD or ISO 8601)"],
      ["custom_attributes.ref", "must look like ORD-123"],
    ]);
    const right = await set({ order_total: 19.9, site: "https://shop.example", due: "2026-02-01", ref: "ORD-77" });
    expect(right.body.custom_attributes).toEqual({
      order_total: 19.9,
      site: "https://shop.example",
      due: "2026-02-01",
      ref: "ORD-77",
    });
    const patch = await w.h.request("PATCH", `${w.base}/conversations/${c.id}`, {
      token: w.a.adminToken,
      body: { custom_attributes: { ref: "nope" } },
    });
    expect(patch.status).toBe(422);
    const start = await w.h.request("POST", `${w.base}/conversations`, {
      token: w.a.adminToken,
      body: { inbox_id: w.inboxId, contact_id: w.contactId, custom_attributes: { order_total: "x" } },
    });
    expect(start.status).toBe(422);
    const cleared = await set({ order_total: null });
    expect(cleared.status).toBe(200);
  });
});

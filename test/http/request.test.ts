// The shared request layer: bodies as Chatwoot clients send them, once, for every route.
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { t } from "elysia";
import { fromEntries, shapeBody } from "../../src/http/body.ts";
import { bodyOf } from "../../src/http/request.ts";
import { Checked, Nullable, PlainInteger } from "../../src/http/schemas.ts";
import { createHarness, type RequestOptions } from "../helpers/harness.ts";
import { makeAccount } from "../helpers/factories.ts";

const Probe = t.Object({
  count: t.Integer(),
  enabled: t.Boolean(),
  attrs: t.Optional(t.Record(t.String(), t.Any())),
  ids: t.Optional(t.Array(t.Integer())),
});

function probeApp() {
  const h = createHarness();
  const app = h.app
    .post("/probe", ({ body }) => body, { ...bodyOf(Probe, "probe") })
    .get("/probe-query", ({ query }) => query, {
      query: t.Object({ labels: t.Optional(t.Array(t.String())), page: t.Optional(t.Integer()) }),
    });
  const send = async (path: string, init: RequestInit) => {
    const res = await app.handle(new Request(`http://localhost${path}`, init));
    return { status: res.status, body: (await res.json()) as any };
  };
  return { h, send };
}

describe("request bodies", () => {
  test("JSON with strings where the schema wants numbers and booleans is coerced", async () => {
    const { send } = probeApp();
    const r = await send("/probe", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ count: "12", enabled: "false" }),
    });
    expect(r).toEqual({ status: 200, body: { count: 12, enabled: false } });
  });

  test("url-encoded body with Rails-style keys and JSON text for an object field", async () => {
    const { send } = probeApp();
    const body = `count=3&enabled=true&ids[]=4&ids[]=5&attrs=${encodeURIComponent('{"plan":"pro","seats":3}')}`;
    const r = await send("/probe", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(r).toEqual({
      status: 200,
      body: { count: 3, enabled: true, ids: [4, 5], attrs: { plan: "pro", seats: 3 } },
    });
  });

  test("multipart body with nested keys", async () => {
    const { send } = probeApp();
    const fd = new FormData();
    fd.set("probe[count]", "7");
    fd.set("probe[enabled]", "1");
    fd.set("probe[attrs][city]", "Lyon");
    // Multipart needs some credential to be read at all (src/http/request.ts); the probe checks none.
    const r = await send("/probe", { method: "POST", body: fd, headers: { api_access_token: "any" } });
    expect(r).toEqual({ status: 200, body: { count: 7, enabled: true, attrs: { city: "Lyon" } } });
  });

  test("fields nested under the resource key are lifted", async () => {
    const { send } = probeApp();
    const r = await send("/probe", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ probe: { count: 1, enabled: true } }),
    });
    expect(r).toEqual({ status: 200, body: { count: 1, enabled: true } });
  });

  test("a trailing slash reaches the same route", async () => {
    const { send } = probeApp();
    const r = await send("/probe/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ count: 2, enabled: false }),
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ count: 2, enabled: false });
  });

  test("a value that cannot be coerced is a 422 naming the field", async () => {
    const { send } = probeApp();
    const r = await send("/probe", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ count: "twelve", enabled: true }),
    });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].field).toBe("count");
  });

  test("a missing required field is 422 with code required", async () => {
    const { send } = probeApp();
    const r = await send("/probe", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ enabled: true }),
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toContainEqual({ field: "count", message: "Expected required property", code: "required" });
  });

  test("an empty body is an empty object, so required fields are reported by name", async () => {
    const { send } = probeApp();
    const r = await send("/probe", { method: "POST" });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { field: string }) => e.field)).toEqual(["count", "enabled"]);
  });

  test("repeated labels[] in a query keep every value", async () => {
    const { send } = probeApp();
    const r = await send("/probe-query?labels[]=billing&labels[]=vip&page=2", { method: "GET" });
    expect(r).toEqual({ status: 200, body: { labels: ["billing", "vip"], page: 2 } });
  });

  test("url-encoded update through a real route: form strings land typed", async () => {
    const h = createHarness();
    const a = await makeAccount(h);
    const r = await h.request("PATCH", `/api/v1/accounts/${a.accountId}`, {
      token: a.adminToken,
      form: { "account[name]": "Form Co", custom_attributes: '{"tier":2}' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: "Form Co", custom_attributes: { tier: 2 } });
  });

  test("a NUL character in any body's text is a 422 naming the field, and changes nothing", async () => {
    const h = createHarness();
    const a = await makeAccount(h);
    const path = `/api/v1/accounts/${a.accountId}`;
    const patch = (opts: RequestOptions) => () => h.request("PATCH", path, { token: a.adminToken, ...opts });
    const multipart = (name: string, value: string) => async () => {
      const body = new FormData();
      body.set(name, value);
      const headers = { api_access_token: a.adminToken };
      const res = await h.app.handle(new Request(`http://localhost${path}`, { method: "PATCH", body, headers }));
      return { status: res.status, body: (await res.json()) as any };
    };
    const cases: [() => Promise<{ status: number; body: any }>, string][] = [
      [patch({ body: { name: "Ac\u0000me" } }), "name"],
      [
        patch({ body: { account: { custom_attributes: { plan: ["pro", "x\u0000"] } } } }),
        "account.custom_attributes.plan.1",
      ],
      [patch({ body: { custom_attributes: { "pl\u0000an": "pro" } } }), "custom_attributes"],
      [patch({ body: JSON.stringify("\u0000") }), "body"],
      [patch({ form: { "account[name]": "Ac\u0000me" } }), "account.name"],
      [multipart("account[name]", "Ac\u0000me"), "account.name"],
    ];
    for (const [send, field] of cases) {
      const r = await send();
      expect([field, r.status, r.body.errors]).toEqual([
        field,
        422,
        [{ field, message: "must not contain NUL characters", code: "invalid" }],
      ]);
    }
    const account = await h.request("GET", path, { token: a.adminToken });
    expect(account.body).toMatchObject({ name: "Acme", custom_attributes: {} });
  });

  test("a NUL character in a path segment is a 422 naming the parameter", async () => {
    const h = createHarness();
    const a = await makeAccount(h);
    for (const [path, field, token] of [
      ["/public/api/v1/inboxes/ab%00cd", "inbox_identifier", null],
      ["/public/api/v1/inboxes/abc/contacts/x%00", "contact_identifier", null],
      [`/api/v1/accounts/${a.accountId}/webhooks/1/deliveries/%00`, "delivery_id", a.adminToken],
    ] as const) {
      const r = await h.request("GET", path, { token });
      expect([path, r.status, r.body.errors]).toEqual([
        path,
        422,
        [{ field, message: "must not contain NUL characters", code: "invalid" }],
      ]);
    }
  });
});

describe("fromEntries and shapeBody", () => {
  test("Rails bracket rules, last plain key wins, prototype keys ignored", () => {
    expect(
      fromEntries([
        ["a", "1"],
        ["a", "2"],
        ["b[c][d]", "x"],
        ["e[]", "1"],
        ["e[]", "2"],
        ["__proto__[x]", "y"],
      ]),
    ).toEqual({
      a: "2",
      b: { c: { d: "x" } },
      e: ["1", "2"],
    });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  test("a resource key that is itself a field of the schema is not lifted", () => {
    const schema = t.Object({ message: t.Object({ content: t.String() }) });
    expect(shapeBody({ message: { content: "hi" } }, schema, "message")).toEqual({ message: { content: "hi" } });
  });

  test("a Checked field is neither coerced, parsed nor refused: only documented", () => {
    const schema = t.Object({
      n: t.Optional(Checked(PlainInteger())),
      list: t.Optional(Checked(t.Array(t.String()))),
      text: t.Optional(Checked(Nullable(t.String()))),
    });
    const body = { n: "12", list: '["a"]', text: "" };
    expect(shapeBody(body, schema)).toEqual(body);
    for (const value of [{}, body, { n: { x: 1 }, list: 7, text: [] }])
      expect([...Value.Errors(schema, value)]).toEqual([]);
  });
});

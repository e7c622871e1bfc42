// Webhook subscriptions: shapes, validation, who may manage them, and tenant isolation.
import { describe, expect, test } from "bun:test";
import { SPEC_WEBHOOK_KINDS } from "../../src/shared/event-types.ts";
import { createHarness } from "../helpers/harness.ts";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { makeInbox } from "../helpers/webhooks.ts";

async function setup() {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const b = await makeAccount(h, "Globex");
  const agent = await makeMember(h, a.accountId, "agent");
  const base = `/api/v1/accounts/${a.accountId}/webhooks`;
  return { h, a, b, agent, base };
}

const count = (h: ReturnType<typeof createHarness>) =>
  (h.deps.db.query("SELECT COUNT(*) AS n FROM webhooks").get() as { n: number }).n;

describe("POST /webhooks", () => {
  test("returns the bare record with its secret, and the record under payload.webhook; subscriptions default to the spec's eight", async () => {
    const { h, a, base } = await setup();
    const r = await h.request("POST", base, {
      token: a.adminToken,
      body: { url: "https://hooks.example.com/in", name: "CRM" },
    });
    expect(r.status).toBe(200);
    const record = {
      id: 1,
      account_id: a.accountId,
      name: "CRM",
      url: "https://hooks.example.com/in",
      subscriptions: [...SPEC_WEBHOOK_KINDS],
      inbox_id: null,
      disabled_reason: null,
    };
    expect(r.body).toEqual({
      ...record,
      secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      payload: { webhook: record },
    });
    const stored = h.deps.db.query("SELECT secret FROM webhooks WHERE id = 1").get() as { secret: string };
    expect(stored.secret).toBe(r.body.secret);
  });

  test("fields nested under `webhook`, form bodies, JSON text and duplicates in subscriptions", async () => {
    const { h, a, base } = await setup();
    const inboxId = makeInbox(h, a.accountId, { name: "Website" });
    const nested = await h.request("POST", base, {
      token: a.adminToken,
      body: {
        webhook: {
          url: "https://a.example.com",
          subscriptions: ["message_created", "inbox_created", "message_created"],
          inbox_id: inboxId,
        },
      },
    });
    expect(nested.status).toBe(200);
    expect(nested.body.subscriptions).toEqual(["message_created", "inbox_created"]);
    expect(nested.body.inbox_id).toBe(inboxId);
    expect(nested.body.inbox).toEqual({ id: inboxId, name: "Website" });

    const form = await h.request("POST", base, {
      token: a.adminToken,
      form: { url: "https://b.example.com", "subscriptions[]": "contact_created" },
    });
    expect(form.status).toBe(200);
    expect(form.body.subscriptions).toEqual(["contact_created"]);

    const jsonText = await h.request("POST", base, {
      token: a.adminToken,
      form: { url: "https://c.example.com", subscriptions: '["conversation_typing_on"]' },
    });
    expect(jsonText.body.subscriptions).toEqual(["conversation_typing_on"]);
  });

  const bad: [string, Record<string, unknown>, { field: string; code: string; message: string }][] = [
    ["missing url", { name: "x" }, { field: "url", code: "required", message: "can't be blank" }],
    [
      "ftp url",
      { url: "ftp://example.com/x" },
      { field: "url", code: "invalid", message: "URL must use http or https" },
    ],
    [
      "url with credentials",
      { url: "https://user:pw@example.com/x" },
      { field: "url", code: "invalid", message: "URL must not contain credentials" },
    ],
    [
      "not a url",
      { url: "hooks here" },
      { field: "url", code: "invalid", message: "must not contain spaces or control characters" },
    ],
    [
      "url too long",
      { url: `https://example.com/${"a".repeat(2048)}` },
      { field: "url", code: "too_long", message: "is too long (maximum is 2048 characters)" },
    ],
    [
      "empty subscriptions",
      { url: "https://e.example.com", subscriptions: [] },
      { field: "subscriptions", code: "required", message: "can't be blank" },
    ],
    [
      "subscriptions not an array",
      { url: "https://e.example.com", subscriptions: "message_created" },
      { field: "subscriptions", code: "invalid", message: "must be an array of event kinds" },
    ],
    [
      "name too long",
      { url: "https://e.example.com", name: "n".repeat(256) },
      { field: "name", code: "too_long", message: "is too long (maximum is 255 characters)" },
    ],
  ];
  for (const [label, body, error] of bad) {
    test(`422 ${label}, nothing stored`, async () => {
      const { h, a, base } = await setup();
      const r = await h.request("POST", base, { token: a.adminToken, body });
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual([error]);
      expect(count(h)).toBe(0);
    });
  }

  test("422 names every unknown kind", async () => {
    const { h, a, base } = await setup();
    const r = await h.request("POST", base, {
      token: a.adminToken,
      body: { url: "https://e.example.com", subscriptions: ["message_created", "nope", "conversation_opened", 7] },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toHaveLength(1);
    expect(r.body.errors[0].field).toBe("subscriptions");
    expect(r.body.errors[0].code).toBe("invalid");
    // internal kinds are not subscribable either
    expect(r.body.errors[0].message).toStartWith(
      "contains unknown event kinds: nope, conversation_opened, 7 (allowed: conversation_created,",
    );
  });

  test("several bad fields give one item each", async () => {
    const { h, a, base } = await setup();
    const r = await h.request("POST", base, {
      token: a.adminToken,
      body: { url: "gopher://x", subscriptions: ["x"], name: 5 },
    });
    expect(r.body.errors.map((e: { field: string }) => e.field)).toEqual(["url", "name", "subscriptions"]);
  });

  test("the same URL twice in one account is 422 taken; another account may use it", async () => {
    const { h, a, b, base } = await setup();
    expect(
      (await h.request("POST", base, { token: a.adminToken, body: { url: "https://dup.example.com" } })).status,
    ).toBe(200);
    const again = await h.request("POST", base, { token: a.adminToken, body: { url: "https://dup.example.com" } });
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual([{ field: "url", message: "has already been taken", code: "taken" }]);
    const other = await h.request("POST", `/api/v1/accounts/${b.accountId}/webhooks`, {
      token: b.adminToken,
      body: { url: "https://dup.example.com" },
    });
    expect(other.status).toBe(200);
    expect(count(h)).toBe(2);
  });

  test("an inbox of another account is 404 and nothing is stored", async () => {
    const { h, a, b, base } = await setup();
    const foreign = makeInbox(h, b.accountId);
    const r = await h.request("POST", base, {
      token: a.adminToken,
      body: { url: "https://e.example.com", inbox_id: foreign },
    });
    expect(r.status).toBe(404);
    expect(r.body.errors).toEqual([
      { field: "inbox_id", message: `no inbox ${foreign} in this account`, code: "not_found" },
    ]);
    expect(count(h)).toBe(0);
  });
});

describe("list, update, delete, rotate_secret", () => {
  test("list wraps records in payload.webhooks without secrets", async () => {
    const { h, a, b, base } = await setup();
    await h.request("POST", base, {
      token: a.adminToken,
      body: { url: "https://1.example.com", subscriptions: ["message_created"] },
    });
    await h.request("POST", `/api/v1/accounts/${b.accountId}/webhooks`, {
      token: b.adminToken,
      body: { url: "https://2.example.com" },
    });
    const r = await h.request("GET", base, { token: a.adminToken });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      payload: {
        webhooks: [
          {
            id: 1,
            account_id: a.accountId,
            name: null,
            url: "https://1.example.com",
            subscriptions: ["message_created"],
            inbox_id: null,
            disabled_reason: null,
          },
        ],
      },
    });
  });

  test("update changes only the fields sent and answers the bare record plus payload.webhook", async () => {
    const { h, a, base } = await setup();
    const created = (
      await h.request("POST", base, { token: a.adminToken, body: { url: "https://1.example.com", name: "One" } })
    ).body;
    const r = await h.request("PATCH", `${base}/${created.id}`, {
      token: a.adminToken,
      body: { webhook: { subscriptions: ["contact_updated"] } },
    });
    expect(r.status).toBe(200);
    const record = {
      id: created.id,
      account_id: a.accountId,
      name: "One",
      url: "https://1.example.com",
      subscriptions: ["contact_updated"],
      inbox_id: null,
      disabled_reason: null,
    };
    expect(r.body).toEqual({ ...record, payload: { webhook: record } });
    // a changed URL still has to be unique and valid
    await h.request("POST", base, { token: a.adminToken, body: { url: "https://2.example.com" } });
    const taken = await h.request("PATCH", `${base}/${created.id}`, {
      token: a.adminToken,
      body: { url: "https://2.example.com" },
    });
    expect(taken.status).toBe(422);
    expect(taken.body.errors[0]).toMatchObject({ field: "url", code: "taken" });
    const bad = await h.request("PATCH", `${base}/${created.id}`, {
      token: a.adminToken,
      body: { subscriptions: ["bogus"] },
    });
    expect(bad.status).toBe(422);
    // keeping its own URL is fine
    expect(
      (
        await h.request("PATCH", `${base}/${created.id}`, {
          token: a.adminToken,
          body: { url: "https://1.example.com", name: null },
        })
      ).body.name,
    ).toBeNull();
  });

  test("rotate_secret issues a new secret; delete removes the webhook", async () => {
    const { h, a, base } = await setup();
    const created = (await h.request("POST", base, { token: a.adminToken, body: { url: "https://1.example.com" } }))
      .body;
    const rotated = await h.request("POST", `${base}/${created.id}/rotate_secret`, { token: a.adminToken });
    expect(rotated.status).toBe(200);
    expect(rotated.body.id).toBe(created.id);
    expect(rotated.body.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated.body.secret).not.toBe(created.secret);
    const del = await h.request("DELETE", `${base}/${created.id}`, { token: a.adminToken });
    expect(del.status).toBe(200);
    expect(del.text).toBe("");
    expect(count(h)).toBe(0);
    expect((await h.request("DELETE", `${base}/${created.id}`, { token: a.adminToken })).status).toBe(404);
  });
});

describe("authorization and tenant isolation", () => {
  test("no token 401, other account's token 401, agent 403 on every route; nothing changes", async () => {
    const { h, a, b, agent, base } = await setup();
    const created = (
      await h.request("POST", base, { token: a.adminToken, body: { url: "https://1.example.com", name: "Keep" } })
    ).body;
    const routes: [string, string, unknown?][] = [
      ["GET", base],
      ["POST", base, { url: "https://x.example.com" }],
      ["PATCH", `${base}/${created.id}`, { name: "Changed" }],
      ["DELETE", `${base}/${created.id}`],
      ["POST", `${base}/${created.id}/rotate_secret`],
      ["GET", `${base}/${created.id}/deliveries`],
    ];
    for (const [method, path, body] of routes) {
      expect((await h.request(method, path, { body })).status).toBe(401);
      expect((await h.request(method, path, { token: b.adminToken, body })).status).toBe(401);
      const refused = await h.request(method, path, { token: agent.token, body });
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0].code).toBe("forbidden");
    }
    const row = h.deps.db.query("SELECT name, secret FROM webhooks").all();
    expect(row).toEqual([{ name: "Keep", secret: created.secret }]);
  });

  test("another account's webhook id is 404 for its every route, and it is untouched", async () => {
    const { h, a, b } = await setup();
    const theirs = (
      await h.request("POST", `/api/v1/accounts/${b.accountId}/webhooks`, {
        token: b.adminToken,
        body: { url: "https://b.example.com" },
      })
    ).body;
    const mine = `/api/v1/accounts/${a.accountId}/webhooks/${theirs.id}`;
    for (const [method, path] of [
      ["PATCH", mine],
      ["DELETE", mine],
      ["POST", `${mine}/rotate_secret`],
      ["GET", `${mine}/deliveries`],
      ["GET", `${mine}/deliveries/x`],
    ] as const) {
      const r = await h.request(method, path, {
        token: a.adminToken,
        body: method === "PATCH" ? { name: "hijack" } : undefined,
      });
      expect(r.status).toBe(404);
      expect(r.body.errors[0]).toMatchObject({ field: "id", code: "not_found" });
    }
    for (const id of ["abc", "0", "999"])
      expect(
        (await h.request("PATCH", `/api/v1/accounts/${a.accountId}/webhooks/${id}`, { token: a.adminToken, body: {} }))
          .status,
      ).toBe(404);
    expect(h.deps.db.query("SELECT name, secret FROM webhooks").all()).toEqual([{ name: null, secret: theirs.secret }]);
  });
});

// Saved filters: each user's own, per account and type; the payload is checked on save.
import { describe, expect, test } from "bun:test";
import { world } from "../helpers/conversation-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";

const payload = [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }];

describe("custom_filters", () => {
  test("create (Chatwoot's nested body), list by type, show, update with PATCH and PUT, delete", async () => {
    const w = await world();
    const url = `${w.base}/custom_filters`;
    const created = await w.h.request("POST", url, {
      token: w.agent.token,
      body: { custom_filter: { name: "Open ones", filter_type: "conversation", query: { payload } } },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: "Open ones",
      filter_type: "conversation",
      query: { payload },
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const contactFilter = await w.h.request("POST", url, {
      token: w.agent.token,
      body: {
        name: "Gmail",
        filter_type: "contact",
        query: { payload: [{ attribute_key: "email", filter_operator: "contains", values: ["gmail"] }] },
      },
    });
    expect(contactFilter.status).toBe(200);
    expect((await w.h.request("GET", url, { token: w.agent.token })).body.map((f: any) => f.name)).toEqual([
      "Open ones",
    ]);
    expect(
      (await w.h.request("GET", `${url}?filter_type=contact`, { token: w.agent.token })).body.map((f: any) => f.name),
    ).toEqual(["Gmail"]);
    const patched = await w.h.request("PATCH", `${url}/${created.body.id}`, {
      token: w.agent.token,
      body: { name: "Still open" },
    });
    expect(patched.body).toMatchObject({ name: "Still open", query: { payload } });
    const put = await w.h.request("PUT", `${url}/${created.body.id}`, {
      token: w.agent.token,
      body: { custom_filter: { name: "Put" } },
    });
    expect(put.body.name).toBe("Put");
    expect((await w.h.request("GET", `${url}/${created.body.id}`, { token: w.agent.token })).body.name).toBe("Put");
    expect((await w.h.request("DELETE", `${url}/${created.body.id}`, { token: w.agent.token })).status).toBe(200);
    expect((await w.h.request("GET", `${url}/${created.body.id}`, { token: w.agent.token })).status).toBe(404);
  });

  test("another user's, or another account's, filter is 404 and untouched", async () => {
    const w = await world();
    const url = `${w.base}/custom_filters`;
    const mine = await w.h.request("POST", url, { token: w.agent.token, body: { name: "Mine", query: { payload } } });
    expect((await w.h.request("GET", url, { token: w.a.adminToken })).body).toEqual([]);
    expect((await w.h.request("GET", `${url}/${mine.body.id}`, { token: w.a.adminToken })).status).toBe(404);
    expect((await w.h.request("DELETE", `${url}/${mine.body.id}`, { token: w.outsider.token })).status).toBe(404);
    const other = await makeAccount(w.h, "Globex");
    expect(
      (
        await w.h.request("PATCH", `/api/v1/accounts/${other.accountId}/custom_filters/${mine.body.id}`, {
          token: other.adminToken,
          body: { name: "x" },
        })
      ).status,
    ).toBe(404);
    expect((await w.h.request("GET", `${url}/${mine.body.id}`, { token: w.agent.token })).body.name).toBe("Mine");
  });

  test("422: blank name, unknown type, query not an object, an invalid payload (named under query.)", async () => {
    const w = await world();
    const url = `${w.base}/custom_filters`;
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "", query: { payload } }, "name"],
      [{ name: "x", filter_type: "tickets", query: { payload } }, "filter_type"],
      [{ name: "x", query: "status=open" }, "query"],
      [
        { name: "x", query: { payload: [{ attribute_key: "mood", filter_operator: "equal_to", values: ["x"] }] } },
        "query.payload.0.attribute_key",
      ],
    ];
    for (const [body, field] of cases) {
      const r = await w.h.request("POST", url, { token: w.agent.token, body });
      expect(r.status).toBe(422);
      expect(r.body.errors.map((e: any) => e.field)).toContain(field);
    }
    expect((w.h.deps.db.query("SELECT COUNT(*) AS n FROM custom_filters").get() as { n: number }).n).toBe(0);
  });

  test("at most 50 per user", async () => {
    const w = await world();
    const url = `${w.base}/custom_filters`;
    for (let i = 0; i < 50; i++)
      expect(
        (await w.h.request("POST", url, { token: w.agent.token, body: { name: `f${i}`, query: {} } })).status,
      ).toBe(200);
    const over = await w.h.request("POST", url, { token: w.agent.token, body: { name: "one more", query: {} } });
    expect(over.status).toBe(422);
    expect(
      (await w.h.request("POST", url, { token: w.a.adminToken, body: { name: "admin's", query: {} } })).status,
    ).toBe(200);
  });
});

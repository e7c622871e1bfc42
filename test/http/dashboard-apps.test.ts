// /dashboard_apps: Chatwoot's embedded apps. Members list and read them; administrators manage them.
import { describe, expect, test } from "bun:test";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";

async function setup() {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const b = await makeAccount(h, "Globex");
  const agent = await makeMember(h, a.accountId, "agent", "Ann");
  const base = `/api/v1/accounts/${a.accountId}/dashboard_apps`;
  return { h, a, b, agent, base };
}

const CRM = { title: "CRM", content: [{ type: "frame", url: "https://crm.example.com/lookup" }] };

describe("dashboard apps", () => {
  test("an administrator creates, changes and deletes one; every member lists and reads it", async () => {
    const { h, a, agent, base } = await setup();
    const created = await h.request("POST", base, { token: a.adminToken, body: { dashboard_app: CRM } });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    const at = new Date(Math.floor(h.clock.nowMs() / 1000) * 1000).toISOString();
    expect(created.body).toEqual({ id, ...CRM, show_on_sidebar: false, created_at: at });
    expect((await h.request("GET", base, { token: agent.token })).body).toEqual([created.body]);
    expect((await h.request("GET", `${base}/${id}`, { token: agent.token })).body).toEqual(created.body);

    const changed = await h.request("PATCH", `${base}/${id}`, {
      token: a.adminToken,
      body: { title: "Orders", show_on_sidebar: true },
    });
    expect(changed.body).toEqual({ ...created.body, title: "Orders", show_on_sidebar: true });
    const put = await h.request("PUT", `${base}/${id}`, {
      token: a.adminToken,
      body: { dashboard_app: { content: [{ type: "frame", url: "http://10.0.0.5:8080/orders?x=1" }] } },
    });
    expect(put.body.content).toEqual([{ type: "frame", url: "http://10.0.0.5:8080/orders?x=1" }]);
    expect(put.body.title).toBe("Orders");

    const gone = await h.request("DELETE", `${base}/${id}`, { token: a.adminToken });
    expect(gone.status).toBe(204);
    expect((await h.request("GET", `${base}/${id}`, { token: a.adminToken })).status).toBe(404);
    expect((await h.request("GET", base, { token: a.adminToken })).body).toEqual([]);
  });

  test("agents may not create, change or delete (403), and nothing changes", async () => {
    const { h, a, agent, base } = await setup();
    const id = (await h.request("POST", base, { token: a.adminToken, body: CRM })).body.id as number;
    expect((await h.request("POST", base, { token: agent.token, body: CRM })).status).toBe(403);
    expect((await h.request("PATCH", `${base}/${id}`, { token: agent.token, body: { title: "x" } })).status).toBe(403);
    expect((await h.request("DELETE", `${base}/${id}`, { token: agent.token })).status).toBe(403);
    const list = (await h.request("GET", base, { token: agent.token })).body as { id: number; title: string }[];
    expect(list.map((x) => [x.id, x.title])).toEqual([[id, "CRM"]]);
  });

  test("bad input is a 422 naming the field, and changes nothing", async () => {
    const { h, a, base } = await setup();
    const frame = (url: unknown) => ({ title: "CRM", content: [{ type: "frame", url }] });
    const cases: [unknown, string][] = [
      [{ content: CRM.content }, "title"],
      [{ ...CRM, title: "  " }, "title"],
      [{ title: "CRM" }, "content"],
      [{ title: "CRM", content: [] }, "content"],
      [{ title: "CRM", content: "https://crm.example.com" }, "content"],
      [{ title: "CRM", content: [{ type: "link", url: "https://crm.example.com" }] }, "content[0].type"],
      [frame("javascript:alert(1)"), "content[0].url"],
      [frame("crm.example.com"), "content[0].url"],
      [frame(`https://crm.example.com/${"x".repeat(2100)}`), "content[0].url"],
      [{ title: "CRM", content: Array.from({ length: 11 }, () => CRM.content[0]) }, "content"],
      [{ ...CRM, show_on_sidebar: "yes" }, "show_on_sidebar"],
    ];
    for (const [body, field] of cases) {
      const r = await h.request("POST", base, { token: a.adminToken, body });
      expect({ field, status: r.status, got: r.body.errors?.[0]?.field }).toEqual({ field, status: 422, got: field });
    }
    expect((await h.request("GET", base, { token: a.adminToken })).body).toEqual([]);
  });

  test("another account's app is not found here; its token is refused", async () => {
    const { h, a, b, base } = await setup();
    const theirs = (
      await h.request("POST", `/api/v1/accounts/${b.accountId}/dashboard_apps`, { token: b.adminToken, body: CRM })
    ).body.id as number;
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { title: "mine" }],
      ["DELETE", undefined],
    ] as const) {
      const r = await h.request(method, `${base}/${theirs}`, { token: a.adminToken, body });
      expect({ method, status: r.status }).toEqual({ method, status: 404 });
    }
    expect((await h.request("GET", base, { token: b.adminToken })).status).toBe(401);
    const still = await h.request("GET", `/api/v1/accounts/${b.accountId}/dashboard_apps/${theirs}`, {
      token: b.adminToken,
    });
    expect(still.body.title).toBe("CRM");
  });
});

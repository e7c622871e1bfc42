// Rails conventions Chatwoot clients rely on, applied to every route: PUT wherever PATCH answers,
// query-string parameters as body parameters, both spellings of the token header, GET /api.
import { describe, expect, test } from "bun:test";
import { createHarness } from "../helpers/harness.ts";
import { world, newConversation } from "../helpers/conversation-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { makeTeam } from "../helpers/directory-fixtures.ts";

describe("PUT answers wherever PATCH does", () => {
  test("teams, labels and webhooks update with PUT exactly as with PATCH", async () => {
    const h = createHarness();
    const a = await makeAccount(h);
    const base = `/api/v1/accounts/${a.accountId}`;
    const teamId = makeTeam(h, a.accountId, "billing");
    const team = await h.request("PUT", `${base}/teams/${teamId}`, {
      token: a.adminToken,
      body: { description: "Invoices" },
    });
    expect(team.status).toBe(200);
    expect(team.body.description).toBe("Invoices");
    const label = await h.request("POST", `${base}/labels`, { token: a.adminToken, body: { title: "vip" } });
    const put = await h.request("PUT", `${base}/labels/${label.body.id}`, {
      token: a.adminToken,
      body: { description: "Big spenders" },
    });
    expect(put.status).toBe(200);
    expect(put.body.description).toBe("Big spenders");
    const hook = await h.request("POST", `${base}/webhooks`, {
      token: a.adminToken,
      body: { url: "https://hooks.example.com/a" },
    });
    const hookPut = await h.request("PUT", `${base}/webhooks/${hook.body.id}`, {
      token: a.adminToken,
      body: { name: "CRM" },
    });
    expect(hookPut.status).toBe(200);
    expect(hookPut.body.payload.webhook.name).toBe("CRM");
  });

  test("PUT where no PATCH route exists is still a 404, and validation still applies", async () => {
    const h = createHarness();
    const a = await makeAccount(h);
    const r = await h.request("PUT", `/api/v1/accounts/${a.accountId}/webhooks`, { token: a.adminToken, body: {} });
    expect(r.status).toBe(404);
    const teamId = makeTeam(h, a.accountId, "billing");
    const bad = await h.request("PUT", `/api/v1/accounts/${a.accountId}/teams/${teamId}`, {
      token: a.adminToken,
      body: { name: "" },
    });
    expect(bad.status).toBe(422);
  });
});

describe("query-string parameters are body parameters", () => {
  test("POST assignments?team_id= with no body assigns the team (the mobile app's call)", async () => {
    const w = await world();
    const teamId = makeTeam(w.h, w.a.accountId, "billing");
    const c = await newConversation(w);
    const r = await w.h.request("POST", `${w.base}/conversations/${c.id}/assignments?team_id=${teamId}`, {
      token: w.a.adminToken,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: teamId, name: "billing" });
    const show = await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken });
    expect(show.body.meta.team.id).toBe(teamId);
  });

  test("the body wins over the query string", async () => {
    const w = await world();
    const r = await w.h.request("POST", `${w.base}/contacts?name=FromQuery&email=q@example.com`, {
      token: w.a.adminToken,
      body: { name: "FromBody" },
    });
    expect(r.status).toBe(200);
    expect(r.body.payload.contact.name).toBe("FromBody");
    expect(r.body.payload.contact.email).toBe("q@example.com");
  });
});

describe("the token header's spellings", () => {
  for (const header of ["api_access_token", "Api-Access-Token", "api-access-token", "API_ACCESS_TOKEN"]) {
    test(header, async () => {
      const h = createHarness();
      const a = await makeAccount(h);
      const r = await h.request("GET", `/api/v1/accounts/${a.accountId}/contacts`, {
        headers: { [header]: a.adminToken },
      });
      expect(r.status).toBe(200);
      const wrong = await h.request("GET", `/api/v1/accounts/${a.accountId}/contacts`, {
        headers: { [header]: "nope" },
      });
      expect(wrong.status).toBe(401);
    });
  }
});

test("GET /api answers Chatwoot's status object", async () => {
  const h = createHarness();
  h.clock.set(Date.UTC(2026, 0, 2, 3, 4, 5));
  const r = await h.request("GET", "/api");
  expect(r.status).toBe(200);
  expect(r.body).toEqual({
    version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    timestamp: "2026-01-02 03:04:05",
    queue_services: "ok",
    data_services: "ok",
  });
});

// Authorization matrix for the account API: who gets in, who is told what.
import { describe, expect, test } from "bun:test";
import { createHarness } from "../helpers/harness.ts";
import { makeAccount, makeMember } from "../helpers/factories.ts";

async function setup() {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const b = await makeAccount(h, "Globex");
  const agent = await makeMember(h, a.accountId, "agent");
  return { h, a, b, agent };
}

describe("account API authorization", () => {
  test("no token is 401 with the envelope", async () => {
    const { h, a } = await setup();
    const r = await h.request("GET", `/api/v1/accounts/${a.accountId}`);
    expect(r.status).toBe(401);
    expect(r.body.description).toBe("You need to sign in or sign up before continuing.");
    expect(r.body.errors).toEqual([
      { field: "api_access_token", message: "You need to sign in or sign up before continuing.", code: "unauthorized" },
    ]);
  });

  test("an unknown token is 401 Invalid Access Token", async () => {
    const { h, a } = await setup();
    const r = await h.request("GET", `/api/v1/accounts/${a.accountId}`, { token: "not-a-token" });
    expect(r.status).toBe(401);
    expect(r.body.error).toBe("Invalid Access Token");
  });

  test("a valid token of another account is 401 and reveals nothing of it", async () => {
    const { h, a, b } = await setup();
    const r = await h.request("GET", `/api/v1/accounts/${b.accountId}`, { token: a.adminToken });
    expect(r.status).toBe(401);
    expect(r.body.description).toBe("You are not authorized to access this account");
    expect(r.text).not.toContain("Globex");
  });

  test("an unknown or malformed account id is 404", async () => {
    const { h, a } = await setup();
    for (const id of ["999", "abc", "0", "-1"]) {
      const r = await h.request("GET", `/api/v1/accounts/${id}`, { token: a.adminToken });
      expect(r.status).toBe(404);
      expect(r.body.errors[0]).toMatchObject({ field: "account_id", code: "not_found" });
    }
  });

  test("members read their account; only administrators change it (403 for agents, unchanged)", async () => {
    const { h, a, agent } = await setup();
    const read = await h.request("GET", `/api/v1/accounts/${a.accountId}`, { token: agent.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id: a.accountId,
      name: "Acme",
      locale: "en",
      status: "active",
      custom_attributes: {},
    });

    const refused = await h.request("PATCH", `/api/v1/accounts/${a.accountId}`, {
      token: agent.token,
      body: { name: "Hacked" },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0]).toEqual({
      field: "role",
      message: "You are not authorized to do this action",
      code: "forbidden",
    });
    // A role refusal comes before validation: an agent learns nothing from a bad body either.
    const refusedBad = await h.request("PATCH", `/api/v1/accounts/${a.accountId}`, {
      token: agent.token,
      body: { name: 5 },
    });
    expect(refusedBad.status).toBe(403);

    const ok = await h.request("PATCH", `/api/v1/accounts/${a.accountId}`, {
      token: a.adminToken,
      body: { name: "Acme Ltd" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe("Acme Ltd");
    expect(h.deps.repos.accounts.byId(a.accountId)!.name).toBe("Acme Ltd");
  });

  test("another account's administrator cannot change this account", async () => {
    const { h, a, b } = await setup();
    const r = await h.request("PATCH", `/api/v1/accounts/${a.accountId}`, {
      token: b.adminToken,
      body: { name: "Taken" },
    });
    expect(r.status).toBe(401);
    expect(h.deps.repos.accounts.byId(a.accountId)!.name).toBe("Acme");
  });

  test("authentication comes before validation: no token + bad body is 401, not 422", async () => {
    const { h, a } = await setup();
    const r = await h.request("PATCH", `/api/v1/accounts/${a.accountId}`, { body: { name: 5 } });
    expect(r.status).toBe(401);
  });
});

describe("GET /api/v1/profile", () => {
  test("returns the token's user with its accounts and roles, echoing the token used", async () => {
    const { h, a } = await setup();
    const agentInA = await makeMember(h, a.accountId, "agent", "Bea");
    const r = await h.request("GET", "/api/v1/profile", { token: agentInA.token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: agentInA.userId,
      name: "Bea",
      email: agentInA.email,
      access_token: agentInA.token,
      account_id: a.accountId,
      role: "agent",
      type: "user",
    });
    expect(r.body.accounts).toEqual([
      {
        id: a.accountId,
        name: "Acme",
        status: "active",
        active_at: null,
        role: "agent",
        permissions: ["agent"],
        availability: "online",
        availability_status: "offline",
        auto_offline: true,
      },
    ]);
    expect(r.body).not.toHaveProperty("password_hash");
  });

  test("no token is 401", async () => {
    const { h } = await setup();
    expect((await h.request("GET", "/api/v1/profile")).status).toBe(401);
  });

  test("tokens are stored hashed, never in plain text", async () => {
    const { h, a } = await setup();
    const rows = h.deps.db.query("SELECT token_hash FROM access_tokens").all() as { token_hash: string }[];
    expect(rows.some((r) => r.token_hash === a.adminToken)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });
});

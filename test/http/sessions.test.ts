// POST /auth/sign_in, GET /auth/session, DELETE /auth/sign_out: the web app's sessions.
import { describe, expect, test } from "bun:test";
import { sha256Hex } from "../../src/lib/tokens.ts";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";
import { PASSWORD, cookieOf, givePassword, signIn } from "../helpers/sessions.ts";

async function setup(opts: Parameters<typeof createHarness>[0] = {}) {
  const h = createHarness(opts);
  const a = await makeAccount(h, "Acme");
  const agent = await makeMember(h, a.accountId, "agent", "Bea");
  await givePassword(h, agent.userId);
  return { h, a, agent };
}

const INVALID = {
  description: "Invalid login credentials. Please try again.",
  error: "Invalid login credentials. Please try again.",
  errors: [{ field: "credentials", message: "Invalid login credentials. Please try again.", code: "unauthorized" }],
};

describe("POST /auth/sign_in", () => {
  test("answers Chatwoot's {data: user} with a CSRF token and sets an httpOnly SameSite=Strict cookie", async () => {
    const { h, a, agent } = await setup();
    const r = await h.request("POST", "/auth/sign_in", {
      body: { email: agent.email.toUpperCase(), password: PASSWORD },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      id: agent.userId,
      email: agent.email,
      name: "Bea",
      access_token: null,
      account_id: a.accountId,
      role: "agent",
      provider: "email",
      type: "user",
    });
    expect(r.body.data.accounts).toEqual([
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
    expect(r.body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.body.expires_at).toBe(Math.floor(h.clock.nowMs() / 1000) + 14 * 86400);
    const cookie = r.headers.get("set-cookie")!;
    expect(cookie).toMatch(
      /^parley_session=[1-9A-HJ-NP-Za-km-z]{32}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=7776000$/,
    );
    expect(r.headers.get("cache-control")).toBe("no-store");
    // Only the hash is stored.
    const token = cookieOf(r).split("=")[1]!;
    const rows = h.deps.db.query("SELECT token_hash, user_id FROM sessions").all();
    expect(rows).toEqual([{ token_hash: sha256Hex(token), user_id: agent.userId }]);
  });

  test("form bodies work too (Chatwoot's clients post either)", async () => {
    const { h, agent } = await setup();
    const r = await h.request("POST", "/auth/sign_in", { form: { email: agent.email, password: PASSWORD } });
    expect(r.status).toBe(200);
  });

  test("wrong password, unknown email and a user without a password answer identically", async () => {
    const { h, a, agent } = await setup();
    const noPassword = await makeMember(h, a.accountId, "agent");
    const answers = await Promise.all([
      h.request("POST", "/auth/sign_in", { body: { email: agent.email, password: "wrong password" } }),
      h.request("POST", "/auth/sign_in", { body: { email: "nobody@example.com", password: PASSWORD } }),
      h.request("POST", "/auth/sign_in", { body: { email: noPassword.email, password: PASSWORD } }),
    ]);
    for (const r of answers) {
      expect(r.status).toBe(401);
      expect(r.body).toEqual(INVALID);
      expect(r.headers.get("set-cookie")).toBeNull();
    }
    expect(h.deps.db.query("SELECT COUNT(*) AS n FROM sessions").get()).toEqual({ n: 0 });
  });

  test("missing fields are 422 per field", async () => {
    const { h } = await setup();
    const r = await h.request("POST", "/auth/sign_in", { body: {} });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
      ["email", "required"],
      ["password", "required"],
    ]);
  });

  test("a cross-site sign-in (login CSRF) is refused; same-origin and non-browser clients are not", async () => {
    const { h, agent } = await setup();
    const cross = await h.request("POST", "/auth/sign_in", {
      body: { email: agent.email, password: PASSWORD },
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(cross.status).toBe(403);
    expect(cross.body.errors).toEqual([
      { field: "x-csrf-token", message: "sign-in from another site is refused", code: "csrf" },
    ]);
    await signIn(h, agent.email, PASSWORD, { "sec-fetch-site": "same-origin" });
  });

  test("the cookie is Secure behind a trusted https proxy, and only when the proxy is trusted", async () => {
    const trusted = await setup({ env: { PARLEY_TRUST_PROXY: "1" } });
    const s = await signIn(trusted.h, trusted.agent.email, PASSWORD, { "x-forwarded-proto": "https" });
    expect(s.response.headers.get("set-cookie")).toEndWith("; Secure");
    const untrusted = await setup();
    const u = await signIn(untrusted.h, untrusted.agent.email, PASSWORD, { "x-forwarded-proto": "https" });
    expect(u.response.headers.get("set-cookie")).not.toContain("Secure");
  });

  test("signing in again from the same browser ends the session it replaces", async () => {
    const { h, agent } = await setup();
    const first = await signIn(h, agent.email);
    const second = await signIn(h, agent.email, PASSWORD, { cookie: first.cookie });
    expect(second.cookie).not.toBe(first.cookie);
    expect((await h.request("GET", "/auth/session", { headers: { cookie: first.cookie } })).status).toBe(401);
    expect((await h.request("GET", "/auth/session", { headers: { cookie: second.cookie } })).status).toBe(200);
  });
});

describe("GET /auth/session", () => {
  test("returns the user and the same CSRF token as the sign-in", async () => {
    const { h, agent } = await setup();
    const s = await signIn(h, agent.email);
    const r = await h.request("GET", "/auth/session", { headers: { cookie: `other=1; ${s.cookie}` } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: agent.userId, email: agent.email, access_token: null });
    expect(r.body.csrf_token).toBe(s.csrf);
    expect(r.headers.get("cache-control")).toBe("no-store");
  });

  test("no cookie, an unknown cookie, or only an API token is 401", async () => {
    const { h, agent } = await setup();
    expect((await h.request("GET", "/auth/session")).status).toBe(401);
    expect((await h.request("GET", "/auth/session", { headers: { cookie: "parley_session=nope" } })).status).toBe(401);
    expect((await h.request("GET", "/auth/session", { token: agent.token })).status).toBe(401);
  });
});

describe("DELETE /auth/sign_out", () => {
  test("needs the CSRF token, then ends the session and clears the cookie", async () => {
    const { h, agent } = await setup();
    const s = await signIn(h, agent.email);
    const refused = await h.request("DELETE", "/auth/sign_out", { headers: { cookie: s.cookie } });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe("csrf");
    expect((await h.request("GET", "/auth/session", { headers: { cookie: s.cookie } })).status).toBe(200);

    const r = await h.request("DELETE", "/auth/sign_out", { headers: { cookie: s.cookie, "x-csrf-token": s.csrf } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    expect(r.headers.get("set-cookie")).toBe("parley_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
    expect((await h.request("GET", "/auth/session", { headers: { cookie: s.cookie } })).status).toBe(401);
    expect((await h.request("GET", "/api/v1/profile", { headers: { cookie: s.cookie } })).status).toBe(401);
    expect(h.deps.db.query("SELECT COUNT(*) AS n FROM sessions").get()).toEqual({ n: 0 });
  });

  test("without a session it is 401", async () => {
    const { h } = await setup();
    expect((await h.request("DELETE", "/auth/sign_out")).status).toBe(401);
  });
});

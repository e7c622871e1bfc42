// The account API accepts the web app's session cookie as well as api_access_token; changes made
// with the cookie need the session's CSRF token; expired and ended sessions open nothing.
import { describe, expect, test } from "bun:test";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { createHarness, type Harness } from "../helpers/harness.ts";
import { givePassword, signIn } from "../helpers/sessions.ts";

const DAY_MS = 86_400_000;

/** Once the touch the last request left behind (if any) has committed: the request did not wait for it. */
async function touched(h: Harness): Promise<void> {
  await h.deps.writeTx.steps(function* () {
    yield* [];
  });
}

/**
 * The one session's last_used_at, once the touch a request left behind has committed: the request
 * does not wait for it, and on PostgreSQL it is an awaited body (an empty one queued after it
 * resolves once it has committed; on SQLite it ran in place).
 */
async function lastUsedAt(h: Harness): Promise<number> {
  await touched(h);
  return (h.deps.db.query("SELECT last_used_at FROM sessions").get() as { last_used_at: number }).last_used_at;
}

async function setup() {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const b = await makeAccount(h, "Globex");
  const agent = await makeMember(h, a.accountId, "agent", "Bea");
  const admin = await makeMember(h, a.accountId, "administrator", "Ada");
  await givePassword(h, agent.userId);
  await givePassword(h, admin.userId);
  return { h, a, b, agent, admin };
}

describe("session cookie on the account API", () => {
  test("GET /api/v1/profile and /api/v1/accounts/:id with the cookie alone", async () => {
    const { h, a, agent } = await setup();
    const s = await signIn(h, agent.email);
    const profile = await h.request("GET", "/api/v1/profile", { headers: { cookie: s.cookie } });
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ id: agent.userId, email: agent.email, access_token: null, role: "agent" });
    const account = await h.request("GET", `/api/v1/accounts/${a.accountId}`, { headers: { cookie: s.cookie } });
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ id: a.accountId, name: "Acme" });
  });

  test("PATCH with the cookie: no CSRF token → 403 csrf, wrong one → 403, right one → 200", async () => {
    const { h, a, admin } = await setup();
    const s = await signIn(h, admin.email);
    const path = `/api/v1/accounts/${a.accountId}`;
    const none = await h.request("PATCH", path, { headers: { cookie: s.cookie }, body: { name: "Renamed" } });
    expect(none.status).toBe(403);
    expect(none.body).toEqual({
      description: "Invalid CSRF token",
      error: "Invalid CSRF token",
      errors: [
        { field: "x-csrf-token", message: "send the session's CSRF token in the X-CSRF-Token header", code: "csrf" },
      ],
    });
    // One character off (never the same character: a token ending in "A" made this flaky, 1 run in 64).
    const wrongToken = s.csrf.slice(0, -1) + (s.csrf.endsWith("A") ? "B" : "A");
    const wrong = await h.request("PATCH", path, {
      headers: { cookie: s.cookie, "x-csrf-token": wrongToken },
      body: { name: "Renamed" },
    });
    expect(wrong.status).toBe(403);
    expect(h.deps.repos.accounts.byId(a.accountId)!.name).toBe("Acme");

    const ok = await h.request("PATCH", path, {
      headers: { cookie: s.cookie, "x-csrf-token": s.csrf },
      body: { name: "Renamed" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe("Renamed");
    expect(h.deps.repos.accounts.byId(a.accountId)!.name).toBe("Renamed");
  });

  test("another session's CSRF token does not fit", async () => {
    const { h, a, admin } = await setup();
    const mine = await signIn(h, admin.email);
    const other = await signIn(h, admin.email);
    const r = await h.request("PATCH", `/api/v1/accounts/${a.accountId}`, {
      headers: { cookie: mine.cookie, "x-csrf-token": other.csrf },
      body: { name: "X" },
    });
    expect(r.status).toBe(403);
  });

  test("roles and membership apply as with tokens: agent 403, other account 401", async () => {
    const { h, a, b, agent } = await setup();
    const s = await signIn(h, agent.email);
    const headers = { cookie: s.cookie, "x-csrf-token": s.csrf };
    const patch = await h.request("PATCH", `/api/v1/accounts/${a.accountId}`, { headers, body: { name: "Hacked" } });
    expect(patch.status).toBe(403);
    expect(patch.body.errors[0].code).toBe("forbidden");
    const other = await h.request("GET", `/api/v1/accounts/${b.accountId}`, { headers });
    expect(other.status).toBe(401);
    expect(other.text).not.toContain("Globex");
  });

  test("the API token wins over the cookie and needs no CSRF token", async () => {
    const { h, a, agent, admin } = await setup();
    const s = await signIn(h, agent.email);
    const r = await h.request("PATCH", `/api/v1/accounts/${a.accountId}`, {
      token: admin.token,
      headers: { cookie: s.cookie },
      body: { name: "By token" },
    });
    expect(r.status).toBe(200);
    const bad = await h.request("GET", "/api/v1/profile", { token: "not-a-token", headers: { cookie: s.cookie } });
    expect(bad.status).toBe(401);
  });
});

describe("session lifetime", () => {
  test("idle for 14 days → 401 expired; each use within that slides the expiry", async () => {
    const { h, agent } = await setup();
    const s = await signIn(h, agent.email);
    const get = async () => {
      const r = await h.request("GET", "/api/v1/profile", { headers: { cookie: s.cookie } });
      await touched(h);
      return r;
    };
    h.clock.advance(13 * DAY_MS);
    expect((await get()).status).toBe(200); // slides to day 27
    h.clock.advance(13 * DAY_MS);
    expect((await get()).status).toBe(200);
    const session = await h.request("GET", "/auth/session", { headers: { cookie: s.cookie } });
    expect(session.body.expires_at).toBe(Math.floor(h.clock.nowMs() / 1000) + 14 * 86400);
    h.clock.advance(14 * DAY_MS);
    const expired = await get();
    expect(expired.status).toBe(401);
    expect(expired.body.errors).toEqual([
      { field: "session", message: "Your session has expired. Please sign in again.", code: "unauthorized" },
    ]);
  });

  test("a session ends after 90 days however busy", async () => {
    const { h, agent } = await setup();
    const s = await signIn(h, agent.email);
    for (let day = 10; day < 90; day += 10) {
      h.clock.advance(10 * DAY_MS);
      expect((await h.request("GET", "/api/v1/profile", { headers: { cookie: s.cookie } })).status).toBe(200);
      await touched(h);
    }
    h.clock.advance(10 * DAY_MS);
    expect((await h.request("GET", "/api/v1/profile", { headers: { cookie: s.cookie } })).status).toBe(401);
  });

  test("the hourly touch and the sign-out run nothing in place on PostgreSQL", async () => {
    const { h, agent } = await setup();
    const s = await signIn(h, agent.email);
    const start = await lastUsedAt(h);
    h.clock.advance(3_600_000);
    const statuses: number[] = [];
    const touching = await inPlaceDuring(async () => {
      statuses.push((await h.request("GET", "/api/v1/profile", { headers: { cookie: s.cookie } })).status);
    });
    expect(await lastUsedAt(h)).toBe(start + 3600); // the touch, which the request does not wait for
    const signingOut = await inPlaceDuring(async () => {
      const headers = { cookie: s.cookie, "x-csrf-token": s.csrf };
      statuses.push((await h.request("DELETE", "/auth/sign_out", { headers })).status);
    });
    expect([statuses, touching, signingOut]).toEqual([[200, 200], [], []]);
    expect(h.deps.db.query("SELECT COUNT(*) AS n FROM sessions").get()).toEqual({ n: 0 });
  });

  test("expiry is written at most hourly, so reads stay reads", async () => {
    const { h, agent } = await setup();
    const s = await signIn(h, agent.email);
    const lastUsed = () => lastUsedAt(h);
    const start = await lastUsed();
    h.clock.advance(59 * 60_000);
    await h.request("GET", "/api/v1/profile", { headers: { cookie: s.cookie } });
    expect(await lastUsed()).toBe(start);
    h.clock.advance(60_000);
    await h.request("GET", "/api/v1/profile", { headers: { cookie: s.cookie } });
    expect(await lastUsed()).toBe(start + 3600);
  });

  test("a touch the database refuses does not fail the request; the next request touches again", async () => {
    const { h, agent } = await setup();
    const s = await signIn(h, agent.email);
    const lastUsed = () => lastUsedAt(h);
    const start = await lastUsed();
    const repo = h.deps.repos.sessions;
    const touch = repo.touchSteps;
    // biome-ignore lint/correctness/useYield: a step that fails before its statement, as a refused write does
    repo.touchSteps = function* () {
      throw new Error("disk I/O error");
    };
    h.clock.advance(3_600_000);
    try {
      const refused = await h.request("GET", "/api/v1/profile", { headers: { cookie: s.cookie } });
      expect([refused.status, refused.body.email]).toEqual([200, agent.email]);
      await touched(h); // on PostgreSQL the touch's body runs after the response: the stub must still be there
    } finally {
      repo.touchSteps = touch;
    }
    expect(await lastUsed()).toBe(start);
    expect((await h.request("GET", "/api/v1/profile", { headers: { cookie: s.cookie } })).status).toBe(200);
    expect(await lastUsed()).toBe(start + 3600);
  });

  test("setting a new password ends the user's sessions; pruning deletes expired ones", async () => {
    const { h, agent, admin } = await setup();
    const s = await signIn(h, agent.email);
    await signIn(h, admin.email);
    await h.deps.services.passwords.set(agent.userId, "a brand new password");
    expect((await h.request("GET", "/api/v1/profile", { headers: { cookie: s.cookie } })).status).toBe(401);
    expect(await h.deps.services.sessions.prune()).toBe(0);
    h.clock.advance(15 * DAY_MS);
    expect(await h.deps.services.sessions.prune()).toBe(1);
    expect(h.deps.db.query("SELECT COUNT(*) AS n FROM sessions").get()).toEqual({ n: 0 });
  });
});

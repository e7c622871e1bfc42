// PUT/PATCH /api/v1/profile, POST /api/v1/profile/availability, PUT /api/v1/profile/set_active_account:
// the caller changes their own profile, availability and active account (Chatwoot's ProfilesController).
import { describe, expect, test } from "bun:test";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";
import { PASSWORD, givePassword, signIn } from "../helpers/sessions.ts";

async function setup() {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const b = await makeAccount(h, "Globex");
  const bea = await makeMember(h, a.accountId, "agent", "Bea");
  await h.deps.services.accounts.addMember(b.accountId, bea.userId, "administrator");
  await givePassword(h, bea.userId);
  const me = (token = bea.token) => h.request("GET", "/api/v1/profile", { token });
  return { h, a, b, bea, me };
}

describe("PUT/PATCH /api/v1/profile", () => {
  test("name, display name and email change, nested under profile or not; the answer is the profile", async () => {
    const { h, bea, me } = await setup();
    const r = await h.request("PUT", "/api/v1/profile", {
      token: bea.token,
      body: { profile: { name: "Beatrice", display_name: "Bea", email: "Beatrice@Example.com" } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: bea.userId, name: "Beatrice", display_name: "Bea", available_name: "Bea" });
    expect(r.body.email).toBe("beatrice@example.com");
    const flat = await h.request("PATCH", "/api/v1/profile", { token: bea.token, body: { display_name: null } });
    expect(flat.body).toMatchObject({ name: "Beatrice", display_name: null, available_name: "Beatrice" });
    expect((await me()).body).toMatchObject({ name: "Beatrice", email: "beatrice@example.com" });
  });

  test("bad or taken values are a 422 naming the field, and nothing changes", async () => {
    const { h, a, bea, me } = await setup();
    const admin = (await h.request("GET", "/api/v1/profile", { token: a.adminToken })).body.email as string;
    for (const [body, field] of [
      [{ name: "  " }, "name"],
      [{ name: 42 }, "name"],
      [{ email: "not-an-email" }, "email"],
      [{ email: admin.toUpperCase() }, "email"],
      [{ display_name: "x".repeat(256) }, "display_name"],
    ] as const) {
      const r = await h.request("PUT", "/api/v1/profile", { token: bea.token, body: { profile: { ...body } } });
      expect({ field, status: r.status, got: r.body.errors?.[0]?.field }).toEqual({ field, status: 422, got: field });
    }
    expect((await me()).body).toMatchObject({ name: "Bea", email: bea.email });
  });

  test("a new password needs the current one; it ends browser sessions and renews the realtime token", async () => {
    const { h, bea, me } = await setup();
    const session = await signIn(h, bea.email);
    const pubsub = (await me()).body.pubsub_token as string;
    const change = (profile: Record<string, unknown>) =>
      h.request("PUT", "/api/v1/profile", { token: bea.token, body: { profile } });
    const wrong = await change({ current_password: "nope", password: "new password 42" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0]).toEqual({
      field: "current_password",
      message: "Invalid current password",
      code: "invalid",
    });
    expect((await change({ password: "new password 42" })).body.errors[0].field).toBe("current_password");
    const mismatch = await change({
      current_password: PASSWORD,
      password: "new password 42",
      password_confirmation: "other password",
    });
    expect(mismatch.body.errors[0].field).toBe("password_confirmation");
    expect((await change({ current_password: PASSWORD, password: "short" })).body.errors[0].field).toBe("password");
    await signIn(h, bea.email); // still the old password

    const ok = await change({
      current_password: PASSWORD,
      password: "new password 42",
      password_confirmation: "new password 42",
      name: "Bea B",
    });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe("Bea B");
    expect(ok.body.pubsub_token).not.toBe(pubsub);
    const old = await h.request("POST", "/auth/sign_in", { body: { email: bea.email, password: PASSWORD } });
    expect(old.status).toBe(401);
    await signIn(h, bea.email, "new password 42");
    const ended = await h.request("GET", "/auth/session", { headers: { cookie: session.cookie } });
    expect(ended.status).toBe(401);
  });
});

describe("POST /api/v1/profile/availability", () => {
  test("sets the caller's availability in one account, and only there", async () => {
    const { h, a, b, bea, me } = await setup();
    const r = await h.request("POST", "/api/v1/profile/availability", {
      token: bea.token,
      body: { profile: { availability: "busy", account_id: String(a.accountId) } },
    });
    expect(r.status).toBe(200);
    const accounts = r.body.accounts as { id: number; availability: string }[];
    expect(accounts.map((x) => [x.id, x.availability])).toEqual([
      [a.accountId, "busy"],
      [b.accountId, "online"],
    ]);
    // Shown as availability_status once the agent is connected (auto_offline); stored now.
    expect(h.deps.repos.users.membership(a.accountId, bea.userId)?.availability).toBe("busy");
    expect((await me()).body.accounts[0].availability).toBe("busy");
  });

  test("an account the caller is not in is a 404; a missing account or a bad status is a 422", async () => {
    const { h, a, bea } = await setup();
    const other = await makeAccount(h, "Initech");
    const post = (profile: Record<string, unknown>) =>
      h.request("POST", "/api/v1/profile/availability", { token: bea.token, body: { profile } });
    expect((await post({ availability: "busy", account_id: other.accountId })).status).toBe(404);
    expect((await post({ availability: "busy", account_id: "abc" })).status).toBe(404);
    const missing = await post({ availability: "busy" });
    expect({ status: missing.status, field: missing.body.errors[0].field }).toEqual({
      status: 422,
      field: "account_id",
    });
    const bad = await post({ availability: "away", account_id: a.accountId });
    expect({ status: bad.status, field: bad.body.errors[0].field }).toEqual({ status: 422, field: "availability" });
  });
});

describe("PUT /api/v1/profile/set_active_account", () => {
  test("the profile's account_id and role follow the account last made active", async () => {
    const { h, a, b, bea, me } = await setup();
    expect((await me()).body).toMatchObject({ account_id: a.accountId, role: "agent" });
    expect((await me()).body.accounts.map((x: { active_at: string | null }) => x.active_at)).toEqual([null, null]);
    const r = await h.request("PUT", "/api/v1/profile/set_active_account", {
      token: bea.token,
      body: { profile: { account_id: b.accountId } },
    });
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
    const profile = (await me()).body;
    expect(profile).toMatchObject({ account_id: b.accountId, role: "administrator" });
    const now = new Date(Math.floor(h.clock.nowMs() / 1000) * 1000).toISOString();
    expect(profile.accounts.map((x: { active_at: string | null }) => x.active_at)).toEqual([null, now]);
    h.clock.advance(5000);
    await h.request("PUT", "/api/v1/profile/set_active_account", {
      token: bea.token,
      body: { profile: { account_id: a.accountId } },
    });
    expect((await me()).body.account_id).toBe(a.accountId);
    const foreign = await makeAccount(h, "Initech");
    const refused = await h.request("PUT", "/api/v1/profile/set_active_account", {
      token: bea.token,
      body: { profile: { account_id: foreign.accountId } },
    });
    expect(refused.status).toBe(404);
    expect((await me()).body.account_id).toBe(a.accountId);
  });
});

describe("message signature", () => {
  test("set, shown in the profile, cleared by null or blank; bad values are a 422 that changes nothing", async () => {
    const { h, bea, me } = await setup();
    const put = (message_signature: unknown) =>
      h.request("PUT", "/api/v1/profile", { token: bea.token, body: { profile: { message_signature } } });
    const set = await put("  Bea\r\nAcme support  ");
    expect(set.status).toBe(200);
    expect(set.body.message_signature).toBe("Bea\nAcme support");
    expect((await me()).body.message_signature).toBe("Bea\nAcme support");
    for (const bad of [42, ["a"], "x".repeat(2001)]) {
      const r = await put(bad);
      expect({ status: r.status, field: r.body.errors?.[0]?.field }).toEqual({
        status: 422,
        field: "message_signature",
      });
    }
    expect((await me()).body.message_signature).toBe("Bea\nAcme support");
    expect((await put("   ")).body.message_signature).toBeNull();
    await put("again");
    expect((await put(null)).body.message_signature).toBeNull();
    // Changing the name leaves the signature alone.
    await put("kept");
    await h.request("PUT", "/api/v1/profile", { token: bea.token, body: { name: "Beatrix" } });
    expect((await me()).body).toMatchObject({ name: "Beatrix", message_signature: "kept" });
  });
});

// The Platform API: accounts, users, account users and user tokens, each app seeing only what it created.
import { describe, expect, test } from "bun:test";
import { makeAccount, makeInbox, addInboxMember } from "../helpers/factories.ts";
import { createHarness, type Harness } from "../helpers/harness.ts";
import { readNow } from "../../src/db/reads.ts";

const P = "/platform/api/v1";

async function setup() {
  const h = createHarness();
  const app = (await h.deps.services.platform.createApp("Portal")).api_access_token;
  const rival = (await h.deps.services.platform.createApp("Rival")).api_access_token;
  return { h, app, rival };
}

async function createAccount(h: Harness, token: string, name = "Tenant") {
  return (await h.request("POST", `${P}/accounts`, { token, body: { name } })).body as { id: number };
}

async function createUser(h: Harness, token: string, email = "ann@tenant.test") {
  return (await h.request("POST", `${P}/users`, { token, body: { name: "Ann", email } })).body as {
    id: number;
    access_token: string;
  };
}

describe("platform authentication", () => {
  test("no token 401; a user token or an unknown token 401 Invalid access_token", async () => {
    const { h } = await setup();
    const a = await makeAccount(h);
    expect((await h.request("POST", `${P}/accounts`, { body: { name: "X" } })).status).toBe(401);
    for (const token of [a.adminToken, "nope"]) {
      const r = await h.request("POST", `${P}/accounts`, { token, body: { name: "X" } });
      expect(r.status).toBe(401);
      expect(r.body.description).toBe("Invalid access_token");
    }
    expect(h.deps.repos.accounts.byId(2)).toBeNull();
  });

  test("a platform token does not open the account API", async () => {
    const { h, app } = await setup();
    const account = await createAccount(h, app);
    expect((await h.request("GET", `/api/v1/accounts/${account.id}`, { token: app })).status).toBe(401);
  });
});

describe("platform accounts", () => {
  test("create, show, update (status suspends the account), delete", async () => {
    const { h, app } = await setup();
    const created = await h.request("POST", `${P}/accounts`, {
      token: app,
      body: { name: "Tenant", locale: "de", custom_attributes: { plan: "pro" } },
    });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect(created.body).toEqual({
      id,
      name: "Tenant",
      locale: "de",
      status: "active",
      custom_attributes: { plan: "pro" },
      created_at: 1767603600,
    });
    expect((await h.request("GET", `${P}/accounts/${id}`, { token: app })).body).toEqual(created.body);

    const adminToken = await adminTokenFor(h, app, id);
    const inbox = await makeInbox(h, { accountId: id, adminId: 0, adminToken });
    const updated = await h.request("PATCH", `${P}/accounts/${id}`, {
      token: app,
      body: { name: "Tenant 2", status: "suspended", custom_attributes: { seats: 3 } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      id,
      name: "Tenant 2",
      locale: "de",
      status: "suspended",
      custom_attributes: { plan: "pro", seats: 3 },
      created_at: 1767603600,
    });
    const suspended = await h.request("GET", `/api/v1/accounts/${id}/inboxes`, { token: adminToken });
    expect(suspended.status).toBe(401);
    expect(suspended.body.description).toBe("Account is suspended");

    const bad = await h.request("PATCH", `${P}/accounts/${id}`, { token: app, body: { status: "gone" } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { field: "status", message: "must be one of: active, suspended", code: "invalid" },
    ]);
    const blank = await h.request("POST", `${P}/accounts`, { token: app, body: {} });
    expect(blank.body.errors).toEqual([{ field: "name", message: "can't be blank", code: "required" }]);

    const deleted = await h.request("DELETE", `${P}/accounts/${id}`, { token: app });
    expect(deleted.status).toBe(200);
    expect(h.deps.repos.accounts.byId(id)).toBeNull();
    expect(h.deps.repos.inboxes.byId(id, inbox.id)).toBeNull();
    expect((await h.request("GET", `${P}/accounts/${id}`, { token: app })).status).toBe(404);
  });

  test("an app sees only accounts it created: others are 404 and unchanged", async () => {
    const { h, app, rival } = await setup();
    const mine = await createAccount(h, app);
    const seeded = await makeAccount(h, "Seeded");
    for (const id of [mine.id, seeded.accountId]) {
      for (const [method, body] of [["GET"], ["PATCH", { name: "Taken" }], ["DELETE"]] as [string, unknown][]) {
        const r = await h.request(method, `${P}/accounts/${id}`, { token: rival, body });
        expect(r.status).toBe(404);
        expect(r.body.errors[0]).toEqual({
          field: "id",
          message: `no account ${id} created by this platform app`,
          code: "not_found",
        });
      }
      expect((await h.request("GET", `${P}/accounts/${id}/account_users`, { token: rival })).status).toBe(404);
    }
    expect(h.deps.repos.accounts.byId(mine.id)!.name).toBe("Tenant");
    expect(h.deps.repos.accounts.byId(seeded.accountId)!.name).toBe("Seeded");
  });
});

/** An administrator token in a platform-created account, made through the Platform API. */
async function adminTokenFor(h: Harness, app: string, accountId: number) {
  const user = await createUser(h, app, `admin-${accountId}@tenant.test`);
  await h.request("POST", `${P}/accounts/${accountId}/account_users`, {
    token: app,
    body: { user_id: user.id, role: "administrator" },
  });
  return user.access_token;
}

describe("platform users", () => {
  test("create answers the user with its first token; show hides it; the token works on the account API", async () => {
    const { h, app } = await setup();
    const account = await createAccount(h, app);
    const r = await h.request("POST", `${P}/users`, {
      token: app,
      body: { user: { name: "Ann", email: "Ann@Tenant.test", display_name: "Annie", password: "s3cret-pass" } },
    });
    expect(r.status).toBe(200);
    const token = r.body.access_token as string; // read before toMatchObject, which writes matchers into what it matched
    expect(r.body).toMatchObject({
      id: r.body.id,
      name: "Ann",
      display_name: "Annie",
      available_name: "Annie",
      email: "ann@tenant.test",
      access_token: expect.stringMatching(/^\w{32}$/),
      accounts: [],
    });
    expect(h.deps.repos.users.byId(r.body.id)!.password_hash).toStartWith("$argon2id$");

    await h.request("POST", `${P}/accounts/${account.id}/account_users`, {
      token: app,
      body: { user_id: r.body.id, role: "agent" },
    });
    const shown = await h.request("GET", `${P}/users/${r.body.id}`, { token: app });
    expect(shown.body).toMatchObject({ access_token: null, account_id: account.id, role: "agent" });
    expect(shown.body.accounts).toEqual([expect.objectContaining({ id: account.id, name: "Tenant", role: "agent" })]);
    const viaApi = await h.request("GET", `/api/v1/accounts/${account.id}`, { token });
    expect(viaApi.status).toBe(200);
  });

  test("validation: duplicate email (even one the app did not create), bad email, short password", async () => {
    const { h, app } = await setup();
    const seeded = await makeAccount(h, "Seeded");
    const seededEmail = h.deps.repos.users.byId(seeded.adminId)!.email;
    await createUser(h, app, "ann@tenant.test");
    const cases: [unknown, { field: string; code: string }[]][] = [
      [{ name: "A", email: "ANN@tenant.test" }, [{ field: "email", code: "taken" }]],
      [{ name: "A", email: seededEmail }, [{ field: "email", code: "taken" }]],
      [{ name: "A", email: "nope" }, [{ field: "email", code: "invalid" }]],
      [{ name: "A", email: "b@tenant.test", password: "short" }, [{ field: "password", code: "invalid" }]],
      [{ email: "c@tenant.test" }, [{ field: "name", code: "required" }]],
    ];
    for (const [body, errors] of cases) {
      const r = await h.request("POST", `${P}/users`, { token: app, body });
      expect(r.status).toBe(422);
      expect(r.body.errors.map((e: { field: string; code: string }) => ({ field: e.field, code: e.code }))).toEqual(
        errors,
      );
    }
    // No user was handed over: the platform app still sees nothing of the seeded administrator.
    expect((await h.request("GET", `${P}/users/${seeded.adminId}`, { token: app })).status).toBe(404);
  });

  test("update and token: a new token each time, older ones keep working", async () => {
    const { h, app } = await setup();
    const user = await createUser(h, app);
    const updated = await h.request("PATCH", `${P}/users/${user.id}`, {
      token: app,
      body: { name: "Ann B", email: "annb@tenant.test" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: "Ann B", email: "annb@tenant.test", uid: "annb@tenant.test" });
    const t1 = await h.request("POST", `${P}/users/${user.id}/token`, { token: app });
    expect(t1.status).toBe(200);
    expect(t1.body).toEqual({
      access_token: expect.stringMatching(/^\w{32}$/),
      expiry: null,
      user: {
        id: user.id,
        name: "Ann B",
        display_name: null,
        email: "annb@tenant.test",
        pubsub_token: expect.any(String),
      },
    });
    const t2 = await h.request("POST", `${P}/users/${user.id}/token`, { token: app });
    expect(t2.body.access_token).not.toBe(t1.body.access_token);
    for (const token of [user.access_token, t1.body.access_token, t2.body.access_token]) {
      expect((await h.request("GET", "/api/v1/profile", { token })).body.id).toBe(user.id);
    }
  });

  test("delete removes the user, its memberships and tokens", async () => {
    const { h, app } = await setup();
    const account = await createAccount(h, app);
    const adminToken = await adminTokenFor(h, app, account.id);
    const user = await createUser(h, app);
    await h.request("POST", `${P}/accounts/${account.id}/account_users`, { token: app, body: { user_id: user.id } });
    const inbox = await makeInbox(h, { accountId: account.id, adminId: 0, adminToken });
    await addInboxMember(h, { accountId: account.id, adminId: 0, adminToken }, inbox.id, user.id);
    const r = await h.request("DELETE", `${P}/users/${user.id}`, { token: app });
    expect(r.status).toBe(200);
    expect(h.deps.repos.users.byId(user.id)).toBeNull();
    expect(readNow(h.deps.repos.inboxes.members.readMemberIds(inbox.id))).toEqual([]);
    expect(
      h.deps.db
        .query("SELECT COUNT(*) AS n FROM access_tokens WHERE owner_type = 'user' AND owner_id = ?")
        .get(user.id),
    ).toEqual({ n: 0 });
    expect((await h.request("GET", "/api/v1/profile", { token: user.access_token })).status).toBe(401);
  });

  test("users of another app, or created elsewhere, are 404 for every user route", async () => {
    const { h, app, rival } = await setup();
    const user = await createUser(h, app);
    for (const [method, path, body] of [
      ["GET", `${P}/users/${user.id}`],
      ["PATCH", `${P}/users/${user.id}`, { name: "X" }],
      ["DELETE", `${P}/users/${user.id}`],
      ["POST", `${P}/users/${user.id}/token`],
    ] as [string, string, unknown][]) {
      const r = await h.request(method, path, { token: rival, body });
      expect(r.status).toBe(404);
      expect(r.body.errors[0].field).toBe("id");
    }
    expect(h.deps.repos.users.byId(user.id)!.name).toBe("Ann");
    expect(
      h.deps.db
        .query("SELECT COUNT(*) AS n FROM access_tokens WHERE owner_type = 'user' AND owner_id = ?")
        .get(user.id),
    ).toEqual({ n: 1 });
  });
});

describe("platform account users", () => {
  test("add with a role, change the role, list, remove", async () => {
    const { h, app } = await setup();
    const account = await createAccount(h, app);
    const user = await createUser(h, app);
    const path = `${P}/accounts/${account.id}/account_users`;
    const added = await h.request("POST", path, { token: app, body: { user_id: user.id, role: "administrator" } });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      account_id: account.id,
      user_id: user.id,
      role: "administrator",
      availability: "online",
      auto_offline: true,
      created_at: 1767603600,
    });
    const changed = await h.request("POST", path, { token: app, body: { user_id: user.id, role: "agent" } });
    expect(changed.body.role).toBe("agent");
    expect((await h.request("GET", path, { token: app })).body).toEqual([{ ...added.body, role: "agent" }]);

    const badRole = await h.request("POST", path, { token: app, body: { user_id: user.id, role: "owner" } });
    expect(badRole.status).toBe(422);
    expect(badRole.body.errors).toEqual([
      { field: "role", message: "must be one of: agent, administrator", code: "invalid" },
    ]);

    const removed = await h.request("DELETE", path, { token: app, body: { user_id: user.id } });
    expect(removed.status).toBe(200);
    expect(h.deps.repos.users.membership(account.id, user.id)).toBeNull();
  });

  test("only users the app created can be added", async () => {
    const { h, app } = await setup();
    const account = await createAccount(h, app);
    const seeded = await makeAccount(h, "Seeded");
    const r = await h.request("POST", `${P}/accounts/${account.id}/account_users`, {
      token: app,
      body: { user_id: seeded.adminId },
    });
    expect(r.status).toBe(404);
    expect(h.deps.repos.users.membership(account.id, seeded.adminId)).toBeNull();
  });
});

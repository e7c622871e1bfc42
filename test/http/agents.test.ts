// /agents: list, create by name + email + role, update, remove from the account.
import { describe, expect, test } from "bun:test";
import { addInboxMember, addTeamMember, makeAccount, makeInbox, makeMember, makeTeam } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";
import { readNow } from "../../src/db/reads.ts";

async function setup() {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const b = await makeAccount(h, "Globex");
  const agent = await makeMember(h, a.accountId, "agent", "Zed");
  return { h, a, b, agent, base: `/api/v1/accounts/${a.accountId}/agents` };
}

describe("GET /agents", () => {
  test("every member of the account (administrators too), by name, as Agent records; any member may list", async () => {
    const { h, a, agent, base } = await setup();
    const r = await h.request("GET", base, { token: agent.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      expect.objectContaining({ id: a.adminId, name: "Admin", role: "administrator", account_id: a.accountId }),
      {
        id: agent.userId,
        account_id: a.accountId,
        availability_status: "offline",
        auto_offline: true,
        confirmed: true,
        email: agent.email,
        provider: "email",
        available_name: "Zed",
        name: "Zed",
        role: "agent",
        thumbnail: "",
        custom_role_id: null,
      },
    ]);
  });
});

describe("POST /agents", () => {
  test("creates a user and adds them with role, availability and auto_offline", async () => {
    const { h, a, base } = await setup();
    const r = await h.request("POST", base, {
      token: a.adminToken,
      body: {
        agent: {
          name: "Ann",
          email: "Ann@Acme.test",
          role: "administrator",
          availability: "busy",
          auto_offline: false,
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: r.body.id,
      account_id: a.accountId,
      availability_status: "busy",
      auto_offline: false,
      confirmed: false, // no password chosen yet: as in Chatwoot, unconfirmed until then
      email: "ann@acme.test",
      provider: "email",
      available_name: "Ann",
      name: "Ann",
      role: "administrator",
      thumbnail: "",
      custom_role_id: null,
    });
    expect(h.deps.repos.users.membership(a.accountId, r.body.id)).toMatchObject({
      role: "administrator",
      availability: "busy",
      auto_offline: 0,
    });
  });

  test("an existing user of another account joins this one (same user id, their own name kept)", async () => {
    const { h, a, b, base } = await setup();
    const other = await makeMember(h, b.accountId, "agent", "Olga");
    const r = await h.request("POST", base, { token: a.adminToken, body: { name: "Someone", email: other.email } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: other.userId,
      name: "Olga",
      role: "agent",
      account_id: a.accountId,
      availability_status: "offline",
    });
    expect(h.deps.repos.users.membership(b.accountId, other.userId)).not.toBeNull();
  });

  test("validation: duplicate email in the account, unknown role, bad email, missing name", async () => {
    const { h, a, agent, base } = await setup();
    const count = () => h.deps.repos.agents.list(a.accountId).length;
    const cases: [Record<string, unknown>, { field: string; message: string; code: string }[]][] = [
      [
        { name: "Z", email: agent.email.toUpperCase() },
        [{ field: "email", message: "has already been taken", code: "taken" }],
      ],
      [
        { name: "Z", email: "z@acme.test", role: "owner" },
        [{ field: "role", message: "must be one of: agent, administrator", code: "invalid" }],
      ],
      [
        { name: "Z", email: "z@acme.test", availability: "away" },
        [{ field: "availability", message: "must be one of: online, offline, busy", code: "invalid" }],
      ],
      [
        { name: "Z", email: "not-an-email" },
        [{ field: "email", message: "is not a valid email address", code: "invalid" }],
      ],
      [{ email: "z@acme.test" }, [{ field: "name", message: "can't be blank", code: "required" }]],
    ];
    for (const [body, errors] of cases) {
      const r = await h.request("POST", base, { token: a.adminToken, body });
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual(errors);
    }
    expect(count()).toBe(2);
    expect(h.deps.repos.users.byEmail("z@acme.test")).toBeNull();
  });
});

describe("PATCH /agents/:id", () => {
  test("changes name, role, availability and auto_offline", async () => {
    const { h, a, agent, base } = await setup();
    const r = await h.request("PATCH", `${base}/${agent.userId}`, {
      token: a.adminToken,
      body: { name: "Zed Z", role: "administrator", availability: "offline", auto_offline: false },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: agent.userId,
      name: "Zed Z",
      available_name: "Zed Z",
      role: "administrator",
      availability_status: "offline",
      auto_offline: false,
    });
    expect(h.deps.repos.users.byId(agent.userId)!.name).toBe("Zed Z");
  });

  test("the account's only administrator cannot be demoted; a second one can", async () => {
    const { h, a, base } = await setup();
    const refused = await h.request("PATCH", `${base}/${a.adminId}`, { token: a.adminToken, body: { role: "agent" } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        field: "role",
        message: "is the account's only administrator; make another member an administrator first",
        code: "invalid",
      },
    ]);
    expect(h.deps.repos.users.membership(a.accountId, a.adminId)!.role).toBe("administrator");
    await makeMember(h, a.accountId, "administrator", "Second");
    expect(
      (await h.request("PATCH", `${base}/${a.adminId}`, { token: a.adminToken, body: { role: "agent" } })).status,
    ).toBe(200);
  });

  test("bad values are 422 and change nothing", async () => {
    const { h, a, agent, base } = await setup();
    const r = await h.request("PATCH", `${base}/${agent.userId}`, {
      token: a.adminToken,
      body: { name: "", role: "boss" },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { field: string }) => e.field)).toEqual(["name", "role"]);
    expect(readNow(h.deps.repos.agents.readById(a.accountId, agent.userId))!.user.name).toBe("Zed");
  });
});

describe("DELETE /agents/:id", () => {
  test("removes the membership and the inbox and team memberships in this account only", async () => {
    const { h, a, b, agent, base } = await setup();
    const inbox = await makeInbox(h, a);
    const team = await makeTeam(h, a);
    await addInboxMember(h, a, inbox.id, agent.userId);
    await addTeamMember(h, a, team.id, agent.userId);
    // The same user in another account keeps everything there.
    await h.deps.services.accounts.addMember(b.accountId, agent.userId, "agent");
    const theirInbox = await makeInbox(h, b);
    await addInboxMember(h, b, theirInbox.id, agent.userId);

    const r = await h.request("DELETE", `${base}/${agent.userId}`, { token: a.adminToken });
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
    expect(h.deps.repos.users.membership(a.accountId, agent.userId)).toBeNull();
    expect(readNow(h.deps.repos.inboxes.members.readMemberIds(inbox.id))).toEqual([]);
    expect(readNow(h.deps.repos.teams.members.readMemberIds(team.id))).toEqual([]);
    expect(h.deps.repos.users.byId(agent.userId)).not.toBeNull();
    expect(h.deps.repos.users.membership(b.accountId, agent.userId)).not.toBeNull();
    expect(readNow(h.deps.repos.inboxes.members.readMemberIds(theirInbox.id))).toEqual([agent.userId]);
    // Their token no longer opens this account.
    expect((await h.request("GET", base, { token: agent.token })).status).toBe(401);
  });

  test("the only administrator cannot be removed", async () => {
    const { h, a, base } = await setup();
    const r = await h.request("DELETE", `${base}/${a.adminId}`, { token: a.adminToken });
    expect(r.status).toBe(422);
    expect(r.body.errors[0]).toMatchObject({ field: "id", code: "invalid" });
    expect(h.deps.repos.users.membership(a.accountId, a.adminId)).not.toBeNull();
  });
});

describe("agents authorization and tenant isolation", () => {
  test("no token 401, another account 401, agents 403 on writes (before validation); nothing changes", async () => {
    const { h, a, b, agent, base } = await setup();
    const cases: [string, string, unknown][] = [
      ["POST", base, { name: "N", email: "n@acme.test" }],
      ["PATCH", `${base}/${agent.userId}`, { role: "administrator" }],
      ["DELETE", `${base}/${a.adminId}`, undefined],
    ];
    for (const [method, path, body] of cases) {
      expect((await h.request(method, path, { body })).status).toBe(401);
      expect((await h.request(method, path, { token: b.adminToken, body })).status).toBe(401);
      expect((await h.request(method, path, { token: agent.token, body: body && { role: 7 } })).status).toBe(403);
    }
    expect((await h.request("GET", base)).status).toBe(401);
    expect(h.deps.repos.agents.list(a.accountId).map((x) => [x.user.id, x.membership.role])).toEqual([
      [a.adminId, "administrator"],
      [agent.userId, "agent"],
    ]);
  });

  test("a user of another account is 404 for update and delete, and stays as they were", async () => {
    const { h, a, b, base } = await setup();
    for (const [method, body] of [["PATCH", { name: "Taken over" }], ["DELETE"]] as [string, unknown][]) {
      const r = await h.request(method, `${base}/${b.adminId}`, { token: a.adminToken, body });
      expect(r.status).toBe(404);
      expect(r.body.errors).toEqual([
        { field: "id", message: `no agent ${b.adminId} in this account`, code: "not_found" },
      ]);
    }
    expect(h.deps.repos.users.byId(b.adminId)!.name).toBe("Admin");
    expect(h.deps.repos.users.membership(b.accountId, b.adminId)).not.toBeNull();
  });
});

// Teams and team members.
import { describe, expect, test } from "bun:test";
import { addTeamMember, makeAccount, makeMember, makeTeam } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";
import { readNow } from "../../src/db/reads.ts";

async function setup() {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const b = await makeAccount(h, "Globex");
  const agent = await makeMember(h, a.accountId, "agent", "Bea");
  const other = await makeMember(h, a.accountId, "agent", "Cal");
  return { h, a, b, agent, other, base: `/api/v1/accounts/${a.accountId}/teams` };
}

const ids = (list: { id: number }[]) => list.map((x) => x.id);

describe("teams", () => {
  test("create lower-cases the name; list and show tell the caller whether they are a member", async () => {
    const { h, a, agent, base } = await setup();
    const r = await h.request("POST", base, {
      token: a.adminToken,
      body: { team: { name: "Sales EU", description: "Europe", allow_auto_assign: false } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: r.body.id,
      name: "sales eu",
      description: "Europe",
      allow_auto_assign: false,
      account_id: a.accountId,
      is_member: false,
    });
    const support = await makeTeam(h, a, "support");
    await addTeamMember(h, a, support.id, agent.userId);

    const list = await h.request("GET", base, { token: agent.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        id: r.body.id,
        name: "sales eu",
        description: "Europe",
        allow_auto_assign: false,
        account_id: a.accountId,
        is_member: false,
      },
      {
        id: support.id,
        name: "support",
        description: null,
        allow_auto_assign: true,
        account_id: a.accountId,
        is_member: true,
      },
    ]);
    const shown = await h.request("GET", `${base}/${support.id}`, { token: agent.token });
    expect(shown.body).toEqual({
      id: support.id,
      name: "support",
      description: null,
      allow_auto_assign: true,
      account_id: a.accountId,
      is_member: true,
    });
  });

  test("names are unique per account whatever the case; another account may reuse a name", async () => {
    const { h, a, b, base } = await setup();
    await makeTeam(h, a, "sales");
    const dup = await h.request("POST", base, { token: a.adminToken, body: { name: "SALES" } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual([{ field: "name", message: "has already been taken", code: "taken" }]);
    const blank = await h.request("POST", base, { token: a.adminToken, body: { name: "  " } });
    expect(blank.body.errors).toEqual([{ field: "name", message: "can't be blank", code: "required" }]);
    expect(
      (
        await h.request("POST", `/api/v1/accounts/${b.accountId}/teams`, {
          token: b.adminToken,
          body: { name: "Sales" },
        })
      ).status,
    ).toBe(200);
    expect(readNow(h.deps.repos.teams.readList(a.accountId)).map((t) => t.name)).toEqual(["sales"]);
  });

  test("update renames (unique), changes description and allow_auto_assign", async () => {
    const { h, a, base } = await setup();
    const sales = await makeTeam(h, a, "sales");
    await makeTeam(h, a, "support");
    const r = await h.request("PATCH", `${base}/${sales.id}`, {
      token: a.adminToken,
      body: { name: "Inside Sales", description: "", allow_auto_assign: false },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: "inside sales", description: null, allow_auto_assign: false });
    const clash = await h.request("PATCH", `${base}/${sales.id}`, { token: a.adminToken, body: { name: "Support" } });
    expect(clash.status).toBe(422);
    // Keeping its own name is not a clash.
    expect(
      (await h.request("PATCH", `${base}/${sales.id}`, { token: a.adminToken, body: { name: "INSIDE sales" } })).status,
    ).toBe(200);
  });

  test("delete removes the team and its memberships; the members stay in the account", async () => {
    const { h, a, agent, base } = await setup();
    const team = await makeTeam(h, a);
    await addTeamMember(h, a, team.id, agent.userId);
    const r = await h.request("DELETE", `${base}/${team.id}`, { token: a.adminToken });
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
    expect(readNow(h.deps.repos.teams.readById(a.accountId, team.id))).toBeNull();
    expect(h.deps.db.query("SELECT COUNT(*) AS n FROM team_members").get()).toEqual({ n: 0 });
    expect(h.deps.repos.users.membership(a.accountId, agent.userId)).not.toBeNull();
  });
});

describe("team members", () => {
  test("POST answers only the agents added; GET lists all; PATCH replaces and answers all; DELETE removes", async () => {
    const { h, a, agent, other, base } = await setup();
    const team = await makeTeam(h, a);
    const path = `${base}/${team.id}/team_members`;
    await addTeamMember(h, a, team.id, agent.userId);

    const added = await h.request("POST", path, {
      token: a.adminToken,
      body: { user_ids: [agent.userId, other.userId] },
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual([
      {
        id: other.userId,
        account_id: a.accountId,
        availability_status: "offline",
        auto_offline: true,
        confirmed: true,
        email: other.email,
        provider: "email",
        available_name: "Cal",
        name: "Cal",
        role: "agent",
        thumbnail: "",
        custom_role_id: null,
      },
    ]);
    const listed = await h.request("GET", path, { token: agent.token });
    expect(ids(listed.body)).toEqual([agent.userId, other.userId]);

    const replaced = await h.request("PATCH", path, {
      token: a.adminToken,
      body: { user_ids: [a.adminId, other.userId] },
    });
    expect(ids(replaced.body)).toEqual([a.adminId, other.userId]);

    const removed = await h.request("DELETE", path, { token: a.adminToken, body: { user_ids: [other.userId] } });
    expect(removed.status).toBe(200);
    expect(readNow(h.deps.repos.teams.members.readMemberIds(team.id))).toEqual([a.adminId]);
  });

  test("user ids outside the account are 422 naming them; nothing changes", async () => {
    const { h, a, b, agent, base } = await setup();
    const team = await makeTeam(h, a);
    const r = await h.request("POST", `${base}/${team.id}/team_members`, {
      token: a.adminToken,
      body: { user_ids: [agent.userId, b.adminId] },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      { field: "user_ids", message: `are not agents of this account: ${b.adminId}`, code: "invalid" },
    ]);
    expect(readNow(h.deps.repos.teams.members.readMemberIds(team.id))).toEqual([]);
  });
});

describe("teams authorization and tenant isolation", () => {
  test("agents read but may not write (403, before validation); no token or other account 401", async () => {
    const { h, a, b, agent, base } = await setup();
    const team = await makeTeam(h, a);
    const members = `${base}/${team.id}/team_members`;
    const writes: [string, string, unknown][] = [
      ["POST", base, { name: "x" }],
      ["PATCH", `${base}/${team.id}`, { name: "y" }],
      ["DELETE", `${base}/${team.id}`, undefined],
      ["POST", members, { user_ids: [agent.userId] }],
      ["PATCH", members, { user_ids: [agent.userId] }],
      ["DELETE", members, { user_ids: [agent.userId] }],
    ];
    for (const [method, path, body] of writes) {
      expect((await h.request(method, path, { body })).status).toBe(401);
      expect((await h.request(method, path, { token: b.adminToken, body })).status).toBe(401);
      expect(
        (await h.request(method, path, { token: agent.token, body: body && { name: 1, user_ids: "x" } })).status,
      ).toBe(403);
    }
    expect((await h.request("GET", `${base}/${team.id}`, { token: agent.token })).status).toBe(200);
    expect(readNow(h.deps.repos.teams.readList(a.accountId)).map((t) => t.name)).toEqual(["sales"]);
    expect(readNow(h.deps.repos.teams.members.readMemberIds(team.id))).toEqual([]);
  });

  test("another account's team id is 404 everywhere and stays untouched", async () => {
    const { h, a, b, base } = await setup();
    const theirs = await makeTeam(h, b, "theirs");
    await addTeamMember(h, b, theirs.id, b.adminId);
    const calls: [string, string, unknown][] = [
      ["GET", `${base}/${theirs.id}`, undefined],
      ["PATCH", `${base}/${theirs.id}`, { name: "mine" }],
      ["DELETE", `${base}/${theirs.id}`, undefined],
      ["GET", `${base}/${theirs.id}/team_members`, undefined],
      ["POST", `${base}/${theirs.id}/team_members`, { user_ids: [a.adminId] }],
      ["DELETE", `${base}/${theirs.id}/team_members`, { user_ids: [b.adminId] }],
    ];
    for (const [method, path, body] of calls) {
      const r = await h.request(method, path, { token: a.adminToken, body });
      expect(r.status).toBe(404);
      expect(r.body.errors[0]).toEqual({
        field: "id",
        message: `no team ${theirs.id} in this account`,
        code: "not_found",
      });
    }
    expect(readNow(h.deps.repos.teams.readById(b.accountId, theirs.id))!.name).toBe("theirs");
    expect(readNow(h.deps.repos.teams.members.readMemberIds(theirs.id))).toEqual([b.adminId]);
  });
});

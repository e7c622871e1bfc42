// More settings pages' writes as awaited bodies (writeTx.steps, src/db/tx.ts), as in
// awaited-settings-writes.test.ts: teams, inbox members, agent bots and agents. What they change is the same
// on both engines, checked here on both; on PostgreSQL none of them sends a statement through the
// synchronous bridge in place. A refused write changes nothing.
import { describe, expect, test } from "bun:test";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";
import { makeAccount, makeInbox, makeMember } from "../helpers/factories.ts";
import { createHarness, type Harness } from "../helpers/harness.ts";

/** Two accounts; Acme has the agents Zoe and Bea, Globex the agent Sam (a stranger to Acme). */
async function setup() {
  const h = createHarness();
  const [a, b] = [await makeAccount(h, "Acme"), await makeAccount(h, "Globex")];
  const stranger = await makeMember(h, b.accountId, "agent", "Sam");
  const [zoe, bea] = [
    await makeMember(h, a.accountId, "agent", "Zoe"),
    await makeMember(h, a.accountId, "agent", "Bea"),
  ];
  return { h, a, b, zoe, bea, stranger, base: `/api/v1/accounts/${a.accountId}` };
}

const names = (payload: { name: string }[]) => payload.map((x) => x.name);

async function teamNames(h: Harness, base: string, token: string): Promise<string[]> {
  return names((await h.request("GET", `${base}/teams`, { token })).body);
}

describe("teams: writes in one awaited body each", () => {
  test("create, a refused duplicate, update, a foreign team's 404, members, delete", async () => {
    const { h, a, b, zoe, bea, stranger, base } = await setup();
    const admin = { token: a.adminToken };
    const theirs = (
      await h.request("POST", `/api/v1/accounts/${b.accountId}/teams`, { token: b.adminToken, body: { name: "Ops" } })
    ).body.id as number;
    const answers: unknown[] = [];
    let id = 0;
    const blocking = await inPlaceDuring(async () => {
      const made = await h.request("POST", `${base}/teams`, { ...admin, body: { name: "Sales", description: "S" } });
      id = made.body.id;
      answers.push([made.status, made.body.name, made.body.description, made.body.allow_auto_assign]);
      const duplicate = await h.request("POST", `${base}/teams`, { ...admin, body: { name: "SALES" } });
      answers.push([duplicate.status, duplicate.body.errors]);
      const other = await h.request("POST", `${base}/teams`, { ...admin, body: { name: "support" } });
      const clash = await h.request("PATCH", `${base}/teams/${other.body.id}`, { ...admin, body: { name: "sales" } });
      answers.push([clash.status, clash.body.errors[0].code]);
      const changed = await h.request("PATCH", `${base}/teams/${id}`, {
        ...admin,
        body: { name: "Field Sales", allow_auto_assign: false },
      });
      answers.push([changed.status, changed.body.name, changed.body.description, changed.body.allow_auto_assign]);
      const foreign = await h.request("PATCH", `${base}/teams/${theirs}`, { ...admin, body: { name: "mine" } });
      answers.push(foreign.status);
      const members = `${base}/teams/${id}/team_members`;
      const added = await h.request("POST", members, { ...admin, body: { user_ids: [zoe.userId, bea.userId] } });
      answers.push([added.status, names(added.body)]);
      const again = await h.request("POST", members, { ...admin, body: { user_ids: [zoe.userId] } });
      answers.push([again.status, names(again.body)]);
      const outsider = await h.request("POST", members, { ...admin, body: { user_ids: [stranger.userId] } });
      answers.push([outsider.status, outsider.body.errors]);
      const replaced = await h.request("PATCH", members, { ...admin, body: { user_ids: [bea.userId] } });
      answers.push([replaced.status, names(replaced.body)]);
      const removed = await h.request("DELETE", members, { ...admin, body: { user_ids: [bea.userId] } });
      answers.push(removed.status);
      const gone = await h.request("DELETE", `${base}/teams/${other.body.id}`, admin);
      answers.push(gone.status);
      const theirsGone = await h.request("DELETE", `${base}/teams/${theirs}`, admin);
      answers.push(theirsGone.status);
    });
    expect(answers).toEqual([
      [200, "sales", "S", true],
      [422, [{ field: "name", message: "has already been taken", code: "taken" }]],
      [422, "taken"],
      [200, "field sales", "S", false],
      404,
      [200, ["Bea", "Zoe"]],
      [200, []],
      [422, [{ field: "user_ids", message: `are not agents of this account: ${stranger.userId}`, code: "invalid" }]],
      [200, ["Bea"]],
      200,
      200,
      404,
    ]);
    expect(blocking).toEqual([]);
    expect(await teamNames(h, base, a.adminToken)).toEqual(["field sales"]);
    expect((await h.request("GET", `${base}/teams/${id}/team_members`, admin)).body).toEqual([]);
    expect(await teamNames(h, `/api/v1/accounts/${b.accountId}`, b.adminToken)).toEqual(["ops"]);
  });
});

describe("inbox members: writes in one awaited body each", () => {
  test("add, a refused stranger, replace, a foreign inbox's 404, remove", async () => {
    const { h, a, b, zoe, bea, stranger, base } = await setup();
    const inbox = await makeInbox(h, a);
    const theirs = await makeInbox(h, b);
    const admin = { token: a.adminToken };
    const members = `${base}/inbox_members`;
    const answers: unknown[] = [];
    const blocking = await inPlaceDuring(async () => {
      const added = await h.request("POST", members, {
        ...admin,
        body: { inbox_id: inbox.id, user_ids: [zoe.userId, bea.userId] },
      });
      answers.push([added.status, names(added.body.payload)]);
      const outsider = await h.request("POST", members, {
        ...admin,
        body: { inbox_id: inbox.id, user_ids: [bea.userId, stranger.userId] },
      });
      answers.push([outsider.status, outsider.body.errors]);
      const replaced = await h.request("PATCH", members, {
        ...admin,
        body: { inbox_id: inbox.id, user_ids: [zoe.userId] },
      });
      answers.push([replaced.status, names(replaced.body.payload)]);
      const foreign = await h.request("POST", members, {
        ...admin,
        body: { inbox_id: theirs.id, user_ids: [zoe.userId] },
      });
      answers.push(foreign.status);
      const blank = await h.request("POST", members, { ...admin, body: { user_ids: [zoe.userId] } });
      answers.push([blank.status, blank.body.errors[0].field]);
      const removed = await h.request("DELETE", members, {
        ...admin,
        body: { inbox_id: inbox.id, user_ids: [zoe.userId] },
      });
      answers.push([removed.status, names(removed.body.payload)]);
      const readded = await h.request("POST", members, {
        ...admin,
        body: { inbox_id: inbox.id, user_ids: [bea.userId] },
      });
      answers.push([readded.status, names(readded.body.payload)]);
    });
    expect(answers).toEqual([
      [200, ["Bea", "Zoe"]],
      [422, [{ field: "user_ids", message: `are not agents of this account: ${stranger.userId}`, code: "invalid" }]],
      [200, ["Zoe"]],
      404,
      [422, "inbox_id"],
      [200, []],
      [200, ["Bea"]],
    ]);
    expect(blocking).toEqual([]);
    expect(names((await h.request("GET", `${members}/${inbox.id}`, admin)).body.payload)).toEqual(["Bea"]);
    const theirMembers = `/api/v1/accounts/${b.accountId}/inbox_members/${theirs.id}`;
    expect((await h.request("GET", theirMembers, { token: b.adminToken })).body.payload).toEqual([]);
  });
});

describe("agent bots: writes in one awaited body each", () => {
  test("create, a refused one, update, foreign 404s, token, inbox link, delete; a platform app's too", async () => {
    const { h, a, b, base } = await setup();
    const admin = { token: a.adminToken };
    const inbox = await makeInbox(h, a);
    const theirInbox = await makeInbox(h, b);
    const theirBot = (
      await h.request("POST", `/api/v1/accounts/${b.accountId}/agent_bots`, {
        token: b.adminToken,
        body: { name: "Theirs" },
      })
    ).body.id as number;
    const app = (await h.deps.services.platform.createApp("Portal")).api_access_token;
    const platform = { token: app };
    const answers: unknown[] = [];
    let id = 0;
    let platformId = 0;
    const blocking = await inPlaceDuring(async () => {
      const made = await h.request("POST", `${base}/agent_bots`, {
        ...admin,
        body: { name: "Helper", outgoing_url: "https://bot.example/hook" },
      });
      id = made.body.id;
      const token = made.body.access_token;
      answers.push([made.status, made.body.name, made.body.outgoing_url]);
      const refused = await h.request("POST", `${base}/agent_bots`, {
        ...admin,
        body: { name: "Bad", outgoing_url: "ftp://bot.example" },
      });
      answers.push([refused.status, refused.body.errors]);
      const changed = await h.request("PATCH", `${base}/agent_bots/${id}`, { ...admin, body: { name: "Helper 2" } });
      answers.push([changed.status, changed.body.name, changed.body.outgoing_url]);
      const invalid = await h.request("PATCH", `${base}/agent_bots/${id}`, { ...admin, body: { name: "" } });
      answers.push([invalid.status, invalid.body.errors[0].field]);
      const foreign = await h.request("PATCH", `${base}/agent_bots/${theirBot}`, { ...admin, body: { name: "Mine" } });
      answers.push(foreign.status);
      const reset = await h.request("POST", `${base}/agent_bots/${id}/reset_access_token`, admin);
      answers.push([reset.status, reset.body.access_token === token]);
      const link = `${base}/inboxes/${inbox.id}/set_agent_bot`;
      answers.push((await h.request("POST", link, { ...admin, body: { agent_bot: id } })).status);
      answers.push((await h.request("POST", link, { ...admin, body: { agent_bot: theirBot } })).status);
      const theirs = `${base}/inboxes/${theirInbox.id}/set_agent_bot`;
      answers.push((await h.request("POST", theirs, { ...admin, body: { agent_bot: id } })).status);
      const platformMade = await h.request("POST", "/platform/api/v1/agent_bots", {
        ...platform,
        body: { name: "Platform Bot" },
      });
      platformId = platformMade.body.id;
      answers.push([platformMade.status, platformMade.body.account_id]);
      const platformChanged = await h.request("PATCH", `/platform/api/v1/agent_bots/${platformId}`, {
        ...platform,
        body: { description: "for all" },
      });
      answers.push([platformChanged.status, platformChanged.body.name, platformChanged.body.description]);
      const notTheApps = await h.request("DELETE", `/platform/api/v1/agent_bots/${id}`, platform);
      answers.push(notTheApps.status);
      const platformBotHere = await h.request("PATCH", `${base}/agent_bots/${platformId}`, {
        ...admin,
        body: { name: "Mine" },
      });
      answers.push(platformBotHere.status);
    });
    expect(answers).toEqual([
      [200, "Helper", "https://bot.example/hook"],
      [422, [{ field: "outgoing_url", message: "must be an http:// or https:// URL", code: "invalid" }]],
      [200, "Helper 2", "https://bot.example/hook"],
      [422, "name"],
      404,
      [200, false],
      200,
      404,
      404,
      [200, null],
      [200, "Platform Bot", "for all"],
      404,
      404,
    ]);
    expect(blocking).toEqual([]);
    const linked = await h.request("GET", `${base}/inboxes/${inbox.id}/agent_bot`, admin);
    expect(linked.body.agent_bot.name).toBe("Helper 2");
    const bots = async () => names((await h.request("GET", `${base}/agent_bots`, admin)).body);
    expect(await bots()).toEqual(["Helper 2", "Platform Bot"]);

    answers.length = 0;
    const removed = await inPlaceDuring(async () => {
      const unlink = `${base}/inboxes/${inbox.id}/set_agent_bot`;
      answers.push((await h.request("POST", unlink, { ...admin, body: { agent_bot: null } })).status);
      answers.push((await h.request("DELETE", `${base}/agent_bots/${id}`, admin)).status);
      answers.push((await h.request("DELETE", `${base}/agent_bots/${theirBot}`, admin)).status);
      answers.push((await h.request("DELETE", `/platform/api/v1/agent_bots/${platformId}`, platform)).status);
    });
    expect(answers).toEqual([200, 200, 404, 200]);
    expect(removed).toEqual([]);
    expect((await h.request("GET", `${base}/inboxes/${inbox.id}/agent_bot`, admin)).body).toEqual({ agent_bot: {} });
    expect(await bots()).toEqual([]);
    const theirBots = await h.request("GET", `/api/v1/accounts/${b.accountId}/agent_bots`, { token: b.adminToken });
    expect(names(theirBots.body)).toEqual(["Theirs"]);
  });
});

describe("agents: writes in one awaited body each", () => {
  test("create, invite, update, refused ones, a foreign agent's 404, removal unassigning the agent's conversations", async () => {
    const w = await world();
    const b = await makeAccount(w.h, "Globex");
    const c = await newConversation(w, { assignee_id: w.agent.userId });
    const admin = { token: w.a.adminToken };
    const agents = `${w.base}/agents`;
    const before = w.h.lastEventId();
    const answers: unknown[] = [];
    let nia = 0;
    const blocking = await inPlaceDuring(async () => {
      const added = await w.h.request("POST", agents, { ...admin, body: { name: "Nia", email: "nia@acme.test" } });
      nia = added.body.id;
      answers.push([added.status, added.body.name, added.body.confirmed]);
      const taken = await w.h.request("POST", agents, { ...admin, body: { name: "N", email: "nia@acme.test" } });
      answers.push([taken.status, taken.body.errors]);
      const noMail = await w.h.request("POST", `${agents}/${nia}/invitation`, admin);
      answers.push([noMail.status, noMail.body.errors[0].code]);
      const renamed = await w.h.request("PATCH", `${agents}/${w.agent.userId}`, {
        ...admin,
        body: { name: "Agnes", role: "administrator", auto_offline: false },
      });
      answers.push([renamed.status, renamed.body.name, renamed.body.role, renamed.body.auto_offline]);
      const invalid = await w.h.request("PATCH", `${agents}/${w.agent.userId}`, { ...admin, body: { role: "boss" } });
      answers.push([invalid.status, invalid.body.errors[0].field]);
      const demoted = await w.h.request("PATCH", `${agents}/${w.agent.userId}`, { ...admin, body: { role: "agent" } });
      answers.push([demoted.status, demoted.body.role]);
      const lastAdmin = await w.h.request("DELETE", `${agents}/${w.a.adminId}`, admin);
      answers.push([lastAdmin.status, lastAdmin.body.errors[0].field]);
      const foreign = await w.h.request("PATCH", `${agents}/${b.adminId}`, { ...admin, body: { name: "Mine" } });
      answers.push(foreign.status);
      answers.push((await w.h.request("DELETE", `${agents}/${w.agent.userId}`, admin)).status);
      answers.push((await w.h.request("DELETE", `${agents}/${w.agent.userId}`, admin)).status);
    });
    expect(answers).toEqual([
      [200, "Nia", false],
      [422, [{ field: "email", message: "has already been taken", code: "taken" }]],
      [503, "mail_not_configured"],
      [200, "Agnes", "administrator", false],
      [422, "role"],
      [200, "agent"],
      [422, "id"],
      404,
      200,
      404,
    ]);
    expect(blocking).toEqual([]);
    const left = await w.h.request("GET", agents, admin);
    expect(left.body.map((x: { id: number }) => x.id)).toEqual([w.a.adminId, nia, w.outsider.userId]);
    // The removal unassigned the agent's conversation in its body, with its event.
    const unassigned = w.h.events(before).filter((e) => e.kind === "assignee_changed");
    expect(unassigned.map((e) => [e.actor.type, e.payload.id])).toEqual([["system", c.id]]);
  });
});

// Mute/unmute and participants (Chatwoot's conversation actions), through HTTP.
import { describe, expect, test } from "bun:test";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { addInboxMember } from "../helpers/directory-fixtures.ts";

describe("mute and unmute", () => {
  test("mute blocks the contact and resolves; a new message does not reopen; unmute unblocks", async () => {
    const w = await world();
    const c = await newConversation(w);
    const conv = `${w.base}/conversations/${c.id}`;
    const muted = await w.h.request("POST", `${conv}/mute`, { token: w.agent.token });
    expect([muted.status, muted.text]).toEqual([200, ""]);
    const after = await w.h.request("GET", conv, { token: w.agent.token });
    expect([after.body.status, after.body.muted]).toEqual(["resolved", true]);
    const messages = await w.h.request("GET", `${conv}/messages`, { token: w.agent.token });
    expect(messages.body.payload.map((m: any) => m.content)).toContain("Ann Agent has muted the conversation");
    await w.h.request("POST", `${conv}/messages`, {
      token: w.a.adminToken,
      body: { content: "still there?", message_type: "incoming" },
    });
    expect((await w.h.request("GET", conv, { token: w.agent.token })).body.status).toBe("resolved");

    expect((await w.h.request("POST", `${conv}/unmute`, { token: w.agent.token })).status).toBe(200);
    const unmuted = await w.h.request("GET", conv, { token: w.agent.token });
    expect([unmuted.body.status, unmuted.body.muted]).toEqual(["resolved", false]);
    await w.h.request("POST", `${conv}/messages`, {
      token: w.a.adminToken,
      body: { content: "hello again", message_type: "incoming" },
    });
    expect((await w.h.request("GET", conv, { token: w.agent.token })).body.status).toBe("open");
  });

  test("walls: an agent outside the inbox cannot mute (403/404), another account gets 404", async () => {
    const w = await world();
    const c = await newConversation(w);
    expect(
      (await w.h.request("POST", `${w.base}/conversations/${c.id}/mute`, { token: w.outsider.token })).status,
    ).toBe(403);
    const other = await makeAccount(w.h, "Other");
    expect(
      (
        await w.h.request("POST", `/api/v1/accounts/${other.accountId}/conversations/${c.id}/mute`, {
          token: other.adminToken,
        })
      ).status,
    ).toBe(404);
    expect((await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken })).body.muted).toBe(
      false,
    );
  });
});

describe("participants", () => {
  test("add, list, replace (PATCH and PUT), remove", async () => {
    const w = await world();
    const c = await newConversation(w);
    const path = `${w.base}/conversations/${c.id}/participants`;
    const second = await makeMember(w.h, w.a.accountId, "agent", "Bea Second");
    addInboxMember(w.h, w.inboxId, second.userId);
    const added = await w.h.request("POST", path, {
      token: w.agent.token,
      body: { user_ids: [w.agent.userId, w.a.adminId] },
    });
    expect(added.body.map((a: any) => [a.id, a.role])).toEqual([
      [w.agent.userId, "agent"],
      [w.a.adminId, "administrator"],
    ]);
    expect((await w.h.request("GET", path, { token: w.agent.token })).body.map((a: any) => a.id)).toEqual([
      w.agent.userId,
      w.a.adminId,
    ]);
    const replaced = await w.h.request("PATCH", path, {
      token: w.agent.token,
      body: { user_ids: [second.userId, w.agent.userId] },
    });
    expect(replaced.body.map((a: any) => a.id)).toEqual([w.agent.userId, second.userId]);
    const put = await w.h.request("PUT", path, { token: w.agent.token, body: { user_ids: [second.userId] } });
    expect(put.body.map((a: any) => a.name)).toEqual(["Bea Second"]);
    expect(
      (await w.h.request("DELETE", path, { token: w.agent.token, body: { user_ids: [second.userId] } })).status,
    ).toBe(200);
    expect((await w.h.request("GET", path, { token: w.agent.token })).body).toEqual([]);
  });

  test("bad ids, agents without the inbox and other accounts' users are 422s that change nothing", async () => {
    const w = await world();
    const c = await newConversation(w);
    const path = `${w.base}/conversations/${c.id}/participants`;
    const other = await makeAccount(w.h, "Other");
    for (const [user_ids, message] of [
      [[w.outsider.userId], "Otto Outsider must have access to the conversation's inbox"],
      [[other.adminId], `no agent ${other.adminId} in this account`],
      [["abc"], "must be a list of agent ids"],
      [[], "must be a list of agent ids"],
    ] as const) {
      const r = await w.h.request("POST", path, { token: w.a.adminToken, body: { user_ids } });
      expect([r.status, r.body.errors[0].field, r.body.errors[0].message]).toEqual([422, "user_ids", message]);
    }
    expect((await w.h.request("GET", path, { token: w.a.adminToken })).body).toEqual([]);
    expect(
      (
        await w.h.request("GET", `/api/v1/accounts/${other.accountId}/conversations/${c.id}/participants`, {
          token: other.adminToken,
        })
      ).status,
    ).toBe(404);
  });
});

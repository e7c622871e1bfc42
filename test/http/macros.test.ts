// /macros: Chatwoot's macros — personal and global, run by hand on conversations as the caller.
import { describe, expect, test } from "bun:test";
import { makeAccount } from "../helpers/factories.ts";
import { newConversation, world, type World } from "../helpers/conversation-fixtures.ts";

const macros = (w: World) => `${w.base}/macros`;
const RESOLVE_WITH_NOTE = {
  name: "Close politely",
  actions: [
    { action_name: "send_message", action_params: ["Thanks, we are closing this now."] },
    { action_name: "add_label", action_params: ["done"] },
    { action_name: "resolve_conversation", action_params: [] },
  ],
};

async function withLabel(w: World) {
  expect(
    (await w.h.request("POST", `${w.base}/labels`, { token: w.a.adminToken, body: { title: "done" } })).status,
  ).toBe(200);
}

describe("macros", () => {
  test("an administrator makes a global macro every member lists and runs; it acts as the caller", async () => {
    const w = await world();
    await withLabel(w);
    const created = await w.h.request("POST", macros(w), {
      token: w.a.adminToken,
      body: { macro: { ...RESOLVE_WITH_NOTE, visibility: "global" } },
    });
    expect(created.status).toBe(200);
    const macro = created.body.payload;
    expect(macro).toMatchObject({
      name: "Close politely",
      visibility: "global",
      account_id: w.a.accountId,
      actions: RESOLVE_WITH_NOTE.actions,
      created_by: { id: w.a.adminId, name: "Admin" },
      updated_by: { id: w.a.adminId },
    });
    const listed = await w.h.request("GET", macros(w), { token: w.agent.token });
    expect(listed.body.payload.map((m: { id: number }) => m.id)).toEqual([macro.id]);

    const one = await newConversation(w);
    const two = await newConversation(w);
    const run = await w.h.request("POST", `${macros(w)}/${macro.id}/execute`, {
      token: w.agent.token,
      body: { conversation_ids: [one.id, two.id] },
    });
    expect(run.status).toBe(200);
    expect(run.text).toBe("");
    for (const id of [one.id, two.id]) {
      const c = (await w.h.request("GET", `${w.base}/conversations/${id}`, { token: w.a.adminToken })).body;
      expect({ status: c.status, labels: c.labels }).toEqual({ status: "resolved", labels: ["done"] });
      const messages = (await w.h.request("GET", `${w.base}/conversations/${id}/messages`, { token: w.agent.token }))
        .body.payload as { content: string; message_type: number; sender?: { id: number } }[];
      const sent = messages.find((m) => m.message_type === 1)!;
      expect({ content: sent.content, sender: sent.sender?.id }).toEqual({
        content: "Thanks, we are closing this now.",
        sender: w.agent.userId,
      });
    }
  });

  test("an agent's macro is personal whatever they ask: others' lists do not show it, they cannot run or change it", async () => {
    const w = await world();
    const mine = await w.h.request("POST", macros(w), {
      token: w.agent.token,
      body: { name: "Mine", visibility: "global", actions: [{ action_name: "open_conversation", action_params: [] }] },
    });
    expect(mine.body.payload.visibility).toBe("personal");
    const id = mine.body.payload.id as number;
    expect((await w.h.request("GET", macros(w), { token: w.outsider.token })).body.payload).toEqual([]);
    expect((await w.h.request("GET", `${macros(w)}/${id}`, { token: w.outsider.token })).status).toBe(404);
    const c = await newConversation(w);
    const run = await w.h.request("POST", `${macros(w)}/${id}/execute`, {
      token: w.outsider.token,
      body: { conversation_ids: [c.id] },
    });
    expect(run.status).toBe(404);
    expect(
      (await w.h.request("PATCH", `${macros(w)}/${id}`, { token: w.outsider.token, body: { name: "x" } })).status,
    ).toBe(404);
    // The administrator sees every macro and may change or delete it; a global one made by another is not an agent's to change.
    expect(
      (await w.h.request("GET", macros(w), { token: w.a.adminToken })).body.payload.map((m: { id: number }) => m.id),
    ).toEqual([id]);
    const renamed = await w.h.request("PATCH", `${macros(w)}/${id}`, {
      token: w.a.adminToken,
      body: { name: "Renamed" },
    });
    expect(renamed.body.payload).toMatchObject({ name: "Renamed", updated_by: { id: w.a.adminId } });
    const global = await w.h.request("POST", macros(w), {
      token: w.a.adminToken,
      body: {
        name: "Shared",
        visibility: "global",
        actions: [{ action_name: "open_conversation", action_params: [] }],
      },
    });
    const shared = global.body.payload.id as number;
    expect(
      (await w.h.request("PATCH", `${macros(w)}/${shared}`, { token: w.agent.token, body: { name: "x" } })).status,
    ).toBe(403);
    expect((await w.h.request("DELETE", `${macros(w)}/${shared}`, { token: w.agent.token })).status).toBe(403);
    expect((await w.h.request("DELETE", `${macros(w)}/${id}`, { token: w.agent.token })).status).toBe(200);
    expect((await w.h.request("GET", `${macros(w)}/${id}`, { token: w.agent.token })).status).toBe(404);
  });

  test("a run is all or nothing: a conversation the caller may not see refuses it, and nothing changes", async () => {
    const w = await world();
    await withLabel(w);
    const macro = (
      await w.h.request("POST", macros(w), {
        token: w.a.adminToken,
        body: { ...RESOLVE_WITH_NOTE, visibility: "global" },
      })
    ).body.payload.id as number;
    const mine = await newConversation(w);
    const run = (ids: unknown, token = w.agent.token) =>
      w.h.request("POST", `${macros(w)}/${macro}/execute`, { token, body: { conversation_ids: ids } });
    expect((await run([mine.id, 9999])).status).toBe(404);
    expect((await run([mine.id], w.outsider.token)).status).toBe(403);
    for (const bad of [undefined, [], ["x"], Array.from({ length: 101 }, (_, i) => i + 1)]) {
      const r = await run(bad);
      expect({ status: r.status, field: r.body.errors[0].field }).toEqual({ status: 422, field: "conversation_ids" });
    }
    const c = (await w.h.request("GET", `${w.base}/conversations/${mine.id}`, { token: w.a.adminToken })).body;
    expect({ status: c.status, labels: c.labels }).toEqual({ status: "open", labels: [] });
  });

  test("an action that cannot be done refuses the run (422 naming it) and undoes the actions before it", async () => {
    const w = await world();
    await withLabel(w);
    const body = {
      name: "Label and hand over",
      visibility: "global",
      actions: [
        { action_name: "add_label", action_params: ["done"] },
        { action_name: "assign_agent", action_params: [w.outsider.userId] },
      ],
    };
    const macro = (await w.h.request("POST", macros(w), { token: w.a.adminToken, body })).body.payload.id as number;
    const c = await newConversation(w);
    // The agent the macro names leaves the account after it was saved.
    expect(
      (await w.h.request("DELETE", `${w.base}/agents/${w.outsider.userId}`, { token: w.a.adminToken })).status,
    ).toBe(200);
    const run = await w.h.request("POST", `${macros(w)}/${macro}/execute`, {
      token: w.a.adminToken,
      body: { conversation_ids: [c.id] },
    });
    expect(run.status).toBe(422);
    expect(run.body.errors[0]).toMatchObject({
      field: "actions[1]",
      message: `no agent ${w.outsider.userId} in this account`,
    });
    expect(
      (await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken })).body.labels,
    ).toEqual([]);
  });

  test("bad macros are a 422 naming the field; another account's macro is not found", async () => {
    const w = await world();
    const cases: [unknown, string][] = [
      [{ actions: RESOLVE_WITH_NOTE.actions }, "name"],
      [{ name: "x" }, "actions"],
      [{ name: "x", actions: [] }, "actions"],
      [
        { name: "x", actions: [{ action_name: "send_webhook_event", action_params: ["https://x.example"] }] },
        "actions[0].action_name",
      ],
      [{ name: "x", actions: [{ action_name: "fly", action_params: [] }] }, "actions[0].action_name"],
      [{ name: "x", actions: [{ action_name: "send_message", action_params: [] }] }, "actions[0].action_params"],
      [{ name: "x", actions: [{ action_name: "assign_agent", action_params: [987654] }] }, "actions[0].action_params"],
      [
        { name: "x", actions: [{ action_name: "add_label", action_params: ["no-such-label"] }] },
        "actions[0].action_params",
      ],
      [{ name: "x", visibility: "team", actions: RESOLVE_WITH_NOTE.actions.slice(2) }, "visibility"],
      [{ name: "x", actions: Array.from({ length: 21 }, () => RESOLVE_WITH_NOTE.actions[2]) }, "actions"],
    ];
    for (const [body, field] of cases) {
      const r = await w.h.request("POST", macros(w), { token: w.a.adminToken, body });
      expect({ field, status: r.status, got: r.body.errors?.[0]?.field }).toEqual({ field, status: 422, got: field });
    }
    expect((await w.h.request("GET", macros(w), { token: w.a.adminToken })).body.payload).toEqual([]);
    const other = await makeAccount(w.h, "Globex");
    const theirs = (
      await w.h.request("POST", `/api/v1/accounts/${other.accountId}/macros`, {
        token: other.adminToken,
        body: { name: "Theirs", visibility: "global", actions: RESOLVE_WITH_NOTE.actions.slice(2) },
      })
    ).body.payload.id as number;
    expect((await w.h.request("GET", `${macros(w)}/${theirs}`, { token: w.a.adminToken })).status).toBe(404);
    expect((await w.h.request("DELETE", `${macros(w)}/${theirs}`, { token: w.a.adminToken })).status).toBe(404);
  });
});

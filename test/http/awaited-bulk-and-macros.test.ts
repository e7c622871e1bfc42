// Bulk actions and macros as awaited bodies (writeTx.steps, src/db/awaited-writes.ts): each is one
// body, all or nothing, whose every change reads the conversation as the change before it left it.
// On both engines: a bulk action and a macro sent together with a toggle each act on the status the
// one before left, and a refused one changes nothing. On PostgreSQL: neither sends anything through
// the synchronous bridge in place.
import { describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { newConversation, type World, world } from "../helpers/conversation-fixtures.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

const bulk = (w: World, body: Record<string, unknown>) =>
  w.h.request("POST", `${w.base}/bulk_actions`, { token: w.a.adminToken, body });

async function macro(w: World, actions: { action_name: string; action_params: unknown[] }[]): Promise<number> {
  const created = await w.h.request("POST", `${w.base}/macros`, {
    token: w.a.adminToken,
    body: { name: "Tidy", visibility: "global", actions },
  });
  expect(created.status).toBe(200);
  return created.body.payload.id;
}

const execute = (w: World, id: number, conversationIds: number[]) =>
  w.h.request("POST", `${w.base}/macros/${id}/execute`, {
    token: w.a.adminToken,
    body: { conversation_ids: conversationIds },
  });

const state = async (w: World, displayId: number) => {
  const r = await w.h.request("GET", `${w.base}/conversations/${displayId}`, { token: w.a.adminToken });
  return { status: r.body.status as string, labels: r.body.labels as string[], priority: r.body.priority };
};

/** The conversation's activity messages, oldest first. */
const activities = (w: World, displayId: number) =>
  (
    w.h.deps.db
      .prepare(
        "SELECT m.content FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.display_id = ? AND c.account_id = ? AND m.message_type = 2 ORDER BY m.id",
      )
      .all(displayId, w.a.accountId) as { content: string }[]
  ).map((m) => m.content);

describe("bulk actions and macros, awaited", () => {
  test("a bulk resolve, a toggle and a macro's reopen sent together: each acts on what the one before left", async () => {
    const w = await world();
    const c = await newConversation(w);
    const reopen = await macro(w, [
      { action_name: "open_conversation", action_params: [] },
      { action_name: "change_priority", action_params: ["high"] },
    ]);
    const answers = await Promise.all([
      bulk(w, { type: "Conversation", ids: [c.id], fields: { status: "resolved" } }),
      w.h.request("POST", `${w.base}/conversations/${c.id}/toggle_status`, { token: w.a.adminToken, body: {} }),
      execute(w, reopen, [c.id]),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    // Whatever order they reached the database in, no change repeated a status the one before set.
    const seen = activities(w, c.id).filter((m) => m.startsWith("Conversation was"));
    for (let i = 1; i < seen.length; i++) expect(seen[i]).not.toBe(seen[i - 1]);
    expect((await state(w, c.id)).priority).toBe("high");
  });

  test("a bulk action naming a conversation the caller may not see changes none of them", async () => {
    const w = await world();
    const one = await newConversation(w);
    const r = await bulk(w, { type: "Conversation", ids: [one.id, 999_999], fields: { status: "resolved" } });
    expect(r.status).toBe(404);
    expect(await state(w, one.id)).toMatchObject({ status: "open" });
    expect(activities(w, one.id)).toEqual([]);
  });

  test("a macro whose second action fails undoes its first: 422 naming the action", async () => {
    const w = await world();
    const c = await newConversation(w);
    const id = await macro(w, [
      { action_name: "resolve_conversation", action_params: [] },
      { action_name: "assign_agent", action_params: [w.agent.userId] },
    ]);
    // The agent leaves the account after the macro was saved: assigning them is the action's failure.
    const removed = await w.h.request("DELETE", `${w.base}/agents/${w.agent.userId}`, { token: w.a.adminToken });
    expect(removed.status).toBe(200);
    const r = await execute(w, id, [c.id]);
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toContain("actions[1]");
    expect(await state(w, c.id)).toMatchObject({ status: "open" });
    expect(activities(w, c.id)).toEqual([]);
  });
});

describe.skipIf(TEST_ENGINE !== "postgres")("PostgreSQL: bulk actions and macros run nothing in place", () => {
  test("labels, status and assignee over two conversations; a macro's note, label and resolve", async () => {
    const w = await world();
    const one = await newConversation(w);
    const two = await newConversation(w);
    // A macro names labels the account has.
    const label = await w.h.request("POST", `${w.base}/labels`, { token: w.a.adminToken, body: { title: "done" } });
    expect(label.status).toBe(200);
    const tidy = await macro(w, [
      { action_name: "add_private_note", action_params: ["Tidied"] },
      { action_name: "add_label", action_params: ["done"] },
      { action_name: "resolve_conversation", action_params: [] },
    ]);
    await w.h.deps.bus.drain(); // the listeners' own writes first
    const blocking = await blockingDuring(async () => {
      const r = await bulk(w, {
        type: "Conversation",
        ids: [one.id, two.id],
        fields: { status: "pending", assignee_id: w.agent.userId },
        labels: { add: ["vip"] },
      });
      expect([r.status, r.text]).toEqual([200, ""]);
      const run = await execute(w, tidy, [one.id]);
      expect(run.status).toBe(200);
    });
    expect(blocking).toEqual([]);
    expect(await state(w, one.id)).toMatchObject({ status: "resolved", labels: ["vip", "done"] });
    expect(await state(w, two.id)).toMatchObject({ status: "pending", labels: ["vip"] });
  });
});

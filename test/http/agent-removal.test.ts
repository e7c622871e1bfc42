// Removing an agent from an account unassigns their conversations there (Chatwoot's agent removal),
// with assignee events so lists, webhooks and sockets follow; their conversations in another
// account stay theirs.
import { describe, expect, test } from "bun:test";
import { addInboxMember, makeInbox } from "../helpers/directory-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";

describe("DELETE /agents/:id and the agent's conversations", () => {
  test("the account's conversations become unassigned with events; another account's stay assigned", async () => {
    const w = await world();
    const c1 = await newConversation(w, { assignee_id: w.agent.userId });
    const c2 = await newConversation(w, { assignee_id: w.agent.userId, status: "pending" });
    const kept = await newConversation(w, { assignee_id: w.a.adminId });

    // The same person works for a second account too.
    const other = await makeAccount(w.h, "Other Co");
    await w.h.deps.services.accounts.addMember(other.accountId, w.agent.userId, "agent");
    const otherInbox = makeInbox(w.h, other.accountId, { name: "Other API" });
    addInboxMember(w.h, otherInbox, w.agent.userId);
    const contact = await w.h.request("POST", `/api/v1/accounts/${other.accountId}/contacts`, {
      token: other.adminToken,
      body: { name: "Olga", email: "olga@example.com" },
    });
    const elsewhere = await w.h.request("POST", `/api/v1/accounts/${other.accountId}/conversations`, {
      token: other.adminToken,
      body: { inbox_id: otherInbox, contact_id: contact.body.payload.contact.id, assignee_id: w.agent.userId },
    });
    expect(elsewhere.status).toBe(200);

    const before = w.h.lastEventId();
    const r = await w.h.request("DELETE", `${w.base}/agents/${w.agent.userId}`, { token: w.a.adminToken });
    expect(r.status).toBe(200);

    const assignee = (accountId: number, displayId: number) =>
      w.h.deps.db
        .query("SELECT assignee_id FROM conversations WHERE account_id = ? AND display_id = ?")
        .get(accountId, displayId);
    expect(assignee(w.a.accountId, c1.id)).toEqual({ assignee_id: null });
    expect(assignee(w.a.accountId, c2.id)).toEqual({ assignee_id: null });
    expect(assignee(w.a.accountId, kept.id)).toEqual({ assignee_id: w.a.adminId });
    expect(assignee(other.accountId, elsewhere.body.id)).toEqual({ assignee_id: w.agent.userId });

    const events = w.h.events(before).filter((e) => e.kind === "assignee_changed");
    expect(events.map((e) => [e.accountId, e.actor.type, e.payload.id])).toEqual([
      [w.a.accountId, "system", c1.id],
      [w.a.accountId, "system", c2.id],
    ]);
    expect((events[0]!.payload.meta as { assignee: unknown }).assignee).toBeNull();

    const list = await w.h.request("GET", `${w.base}/conversations?status=all`, { token: w.a.adminToken });
    expect(list.body.data.meta).toEqual({ mine_count: 1, assigned_count: 1, unassigned_count: 2, all_count: 3 });
  });

  test("a refused removal (the last administrator) unassigns nothing", async () => {
    const w = await world();
    const c = await newConversation(w, { assignee_id: w.a.adminId });
    const before = w.h.lastEventId();
    const r = await w.h.request("DELETE", `${w.base}/agents/${w.a.adminId}`, { token: w.a.adminToken });
    expect(r.status).toBe(422);
    expect(
      w.h.deps.db
        .query("SELECT assignee_id FROM conversations WHERE account_id = ? AND display_id = ?")
        .get(w.a.accountId, c.id),
    ).toEqual({ assignee_id: w.a.adminId });
    expect(w.h.events(before)).toEqual([]);
  });
});

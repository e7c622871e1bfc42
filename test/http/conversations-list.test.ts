// GET /conversations and /conversations/meta: filters, counts before the assignee filter,
// agents limited to their inboxes, contact conversations.
import { describe, expect, test } from "bun:test";
import { addInboxMember, makeInbox, makeTeam } from "../helpers/directory-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { newConversation, send, world, type World } from "../helpers/conversation-fixtures.ts";

async function populated() {
  const w = await world();
  const team = makeTeam(w.h, w.a.accountId, "billing");
  const otherInbox = makeInbox(w.h, w.a.accountId, { name: "Other" });
  const c1 = await newConversation(w, { assignee_id: w.agent.userId });
  w.h.clock.advance(1000);
  const c2 = await newConversation(w, { team_id: team });
  w.h.clock.advance(1000);
  const c3 = await newConversation(w, { status: "resolved", assignee_id: w.a.adminId });
  w.h.clock.advance(1000);
  const c4 = await newConversation(w, { inbox_id: otherInbox });
  w.h.clock.advance(1000);
  const c5 = await newConversation(w, { status: "pending" });
  w.h.clock.advance(1000);
  await w.h.request("POST", `${w.base}/conversations/${c2.id}/labels`, {
    token: w.a.adminToken,
    body: { labels: ["vip"] },
  });
  return { w, team, otherInbox, ids: { c1: c1.id, c2: c2.id, c3: c3.id, c4: c4.id, c5: c5.id } };
}

const list = (w: World, qs = "", token = w.a.adminToken) =>
  w.h.request("GET", `${w.base}/conversations${qs ? `?${qs}` : ""}`, { token });
const ids = (r: { body: { data: { payload: { id: number }[] } } }) => r.body.data.payload.map((c) => c.id);

describe("GET /conversations", () => {
  test("open by default, newest activity first, with the four counts", async () => {
    const { w, ids: c } = await populated();
    const r = await list(w);
    expect(r.status).toBe(200);
    // c2's label activity moved its last_activity_at last of all.
    expect(ids(r)).toEqual([c.c2, c.c4, c.c1]);
    expect(r.body.data.meta).toEqual({ mine_count: 0, assigned_count: 1, unassigned_count: 2, all_count: 3 });
    expect(r.body.data.payload[0]).toMatchObject({ id: c.c2, labels: ["vip"], status: "open" });
  });

  test("status filter incl. all; bad status and assignee_type are 422", async () => {
    const { w, ids: c } = await populated();
    expect(ids(await list(w, "status=resolved"))).toEqual([c.c3]);
    expect(ids(await list(w, "status=pending"))).toEqual([c.c5]);
    expect((await list(w, "status=all")).body.data.meta.all_count).toBe(5);
    const bad = await list(w, "status=closed");
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { field: "status", message: "must be one of: open, resolved, pending, snoozed", code: "invalid" },
    ]);
    expect((await list(w, "assignee_type=someone")).status).toBe(422);
  });

  test("assignee_type narrows the page but not the counts", async () => {
    const { w, ids: c } = await populated();
    const mine = await list(w, "assignee_type=me&status=all", w.a.adminToken);
    expect(ids(mine)).toEqual([c.c3]);
    expect(mine.body.data.meta).toEqual({ mine_count: 1, assigned_count: 2, unassigned_count: 3, all_count: 5 });
    expect(ids(await list(w, "assignee_type=unassigned"))).toEqual([c.c2, c.c4]);
    expect(ids(await list(w, "assignee_type=assigned"))).toEqual([c.c1]);
  });

  test("inbox_id, team_id, labels[] and q filters; unknown team 404, unknown inbox 404", async () => {
    const { w, team, otherInbox, ids: c } = await populated();
    expect(ids(await list(w, `inbox_id=${otherInbox}`))).toEqual([c.c4]);
    expect(ids(await list(w, `team_id=${team}`))).toEqual([c.c2]);
    expect(ids(await list(w, "labels[]=vip&labels[]=nope"))).toEqual([c.c2]);
    await send(w, c.c3, { content: "Where is my Refund?" });
    expect(ids(await list(w, "q=refund"))).toEqual([c.c3]); // q ignores status (c3 is resolved)
    expect((await list(w, "team_id=999")).status).toBe(404);
    expect((await list(w, "inbox_id=999")).status).toBe(404);
    expect((await list(w, "inbox_id=abc")).status).toBe(422);
  });

  test("q is plain text: quotes, % and _ match themselves; NUL or over 500 characters is a 422", async () => {
    const { w, ids: c } = await populated();
    await send(w, c.c1, { content: 'Order "A_1" is 50% off' });
    expect(ids(await list(w, `q=${encodeURIComponent('"a_1"')}`))).toEqual([c.c1]);
    expect(ids(await list(w, `q=${encodeURIComponent("50%")}`))).toEqual([c.c1]);
    for (const q of ["b_", "%", "'", "x".repeat(500)])
      expect(ids(await list(w, `q=${encodeURIComponent(q)}`))).toEqual(q === "%" ? [c.c1] : []);
    for (const [q, error] of [
      ["a%00b", { field: "q", message: "must not contain NUL characters", code: "invalid" }],
      ["x".repeat(10_240), { field: "q", message: "is too long (maximum is 500 characters)", code: "too_long" }],
    ] as const) {
      for (const path of ["conversations", "conversations/meta"]) {
        const r = await w.h.request("GET", `${w.base}/${path}?q=${q}`, { token: w.a.adminToken });
        expect(r.status).toBe(422);
        expect(r.body.errors).toEqual([error]);
      }
    }
  });

  test("agents see only their inboxes' conversations; another inbox in the filter is 403", async () => {
    const { w, otherInbox, ids: c } = await populated();
    const r = await list(w, "status=all", w.agent.token);
    expect(ids(r)).toEqual([c.c2, c.c5, c.c3, c.c1]);
    expect(r.body.data.meta).toEqual({ mine_count: 1, assigned_count: 2, unassigned_count: 2, all_count: 4 });
    expect((await list(w, `inbox_id=${otherInbox}`, w.agent.token)).status).toBe(403);
    expect(ids(await list(w, "status=all", w.outsider.token))).toEqual([]);
    addInboxMember(w.h, otherInbox, w.outsider.userId);
    expect(ids(await list(w, "status=all", w.outsider.token))).toEqual([c.c4]);
  });

  test("sort_by: creation, priority and waiting orders as Chatwoot's; anything else is a 422", async () => {
    const { w, ids: c } = await populated();
    const post = (id: number, action: string, body: unknown) =>
      w.h.request("POST", `${w.base}/conversations/${id}/${action}`, { token: w.a.adminToken, body });
    await post(c.c1, "toggle_priority", { priority: "low" });
    await post(c.c4, "toggle_priority", { priority: "urgent" });
    expect(ids(await list(w, "sort_by=latest"))).toEqual(ids(await list(w)));
    expect(ids(await list(w, "sort_by=sort_on_created_at"))).toEqual([c.c1, c.c2, c.c4]);
    expect(ids(await list(w, "sort_by=sort_on_priority"))).toEqual([c.c4, c.c1, c.c2]);
    // Waiting since creation (no reply yet): the longest wait first.
    expect(ids(await list(w, "status=all&sort_by=sort_on_waiting_since"))).toEqual([c.c1, c.c2, c.c3, c.c4, c.c5]);
    for (const bad of ["newest", "constructor", "__proto__"]) {
      const r = await list(w, `sort_by=${bad}`);
      expect([r.status, r.body.errors[0].field]).toEqual([422, "sort_by"]);
    }
  });

  test("pages of 25", async () => {
    const w = await world();
    for (let i = 0; i < 27; i++) {
      await newConversation(w);
      w.h.clock.advance(1000);
    }
    const p1 = await list(w);
    expect(p1.body.data.payload).toHaveLength(25);
    expect(p1.body.data.payload[0].id).toBe(27);
    const p2 = await list(w, "page=2");
    expect(ids(p2)).toEqual([2, 1]);
    expect(p2.body.data.meta.all_count).toBe(27);
  });

  test("tenant isolation and authentication", async () => {
    const { w } = await populated();
    const other = await makeAccount(w.h, "Other");
    const theirs = await w.h.request("GET", `/api/v1/accounts/${other.accountId}/conversations?status=all`, {
      token: other.adminToken,
    });
    expect(theirs.body.data).toEqual({
      meta: { mine_count: 0, assigned_count: 0, unassigned_count: 0, all_count: 0 },
      payload: [],
    });
    expect((await w.h.request("GET", `${w.base}/conversations`)).status).toBe(401);
    expect((await w.h.request("GET", `${w.base}/conversations`, { token: other.adminToken })).status).toBe(401);
  });
});

describe("GET /conversations/meta and a contact's conversations", () => {
  test("meta answers the same counts as the list", async () => {
    const { w, team } = await populated();
    const r = await w.h.request("GET", `${w.base}/conversations/meta?status=all`, { token: w.a.adminToken });
    expect(r.body).toEqual({ meta: { mine_count: 1, assigned_count: 2, unassigned_count: 3, all_count: 5 } });
    const t = await w.h.request("GET", `${w.base}/conversations/meta?team_id=${team}`, { token: w.a.adminToken });
    expect(t.body).toEqual({ meta: { mine_count: 0, assigned_count: 0, unassigned_count: 1, all_count: 1 } });
  });

  test("GET /contacts/:id/conversations lists the contact's conversations the caller may see", async () => {
    const { w, ids: c } = await populated();
    const all = await w.h.request("GET", `${w.base}/contacts/${w.contactId}/conversations`, { token: w.a.adminToken });
    expect(all.body.payload.map((x: { id: number }) => x.id)).toEqual([c.c2, c.c5, c.c4, c.c3, c.c1]);
    const agent = await w.h.request("GET", `${w.base}/contacts/${w.contactId}/conversations`, { token: w.agent.token });
    expect(agent.body.payload.map((x: { id: number }) => x.id)).toEqual([c.c2, c.c5, c.c3, c.c1]);
    expect((await w.h.request("GET", `${w.base}/contacts/999/conversations`, { token: w.a.adminToken })).status).toBe(
      404,
    );
  });
});

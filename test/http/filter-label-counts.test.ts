// The counts of "label X AND status Y" filters come from the label rows (migration 019), which
// triggers keep equal to their conversations through every change: checked here against the
// general path (an OR filter that counts through the conversations) after status, assignee and
// label changes, for an administrator and for an agent limited to their inboxes.
// (filter() with no status is a label-only filter; with one it is "status AND label".)
import { describe, expect, test } from "bun:test";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";
import { makeInbox } from "../helpers/directory-fixtures.ts";

const filter = (label: string, ...statuses: string[]) => [
  ...statuses.map((s) => ({
    attribute_key: "status",
    filter_operator: "equal_to",
    values: [s],
    query_operator: "AND",
  })),
  { attribute_key: "labels", filter_operator: "equal_to", values: [label], query_operator: null },
];

describe("label filter counts", () => {
  test("follow status, assignee and label changes; agents count only their inboxes", async () => {
    const w = await world();
    const other = makeInbox(w.h, w.a.accountId, { name: "Elsewhere" });
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await newConversation(w, i === 5 ? { inbox_id: other } : {})).id);
    const conv = (id: number, path: string, body: unknown) =>
      w.h.request("POST", `${w.base}/conversations/${id}${path}`, { token: w.a.adminToken, body });
    for (const id of ids.slice(0, 5)) await conv(id, "/labels", { labels: ["billing"] });
    await conv(ids[5]!, "/labels", { labels: ["billing"] });
    await conv(ids[0]!, "/assignments", { assignee_id: w.agent.userId });
    await conv(ids[1]!, "/assignments", { assignee_id: w.a.adminId });
    await conv(ids[2]!, "/toggle_status", { status: "resolved" });
    await conv(ids[3]!, "/labels", { labels: ["other"] }); // billing taken off
    await conv(ids[4]!, "/toggle_status", { status: "pending" });

    const meta = async (token: string, payload: unknown) =>
      (await w.h.request("POST", `${w.base}/conversations/filter`, { token, body: { payload } })).body.meta;
    const admin = await meta(w.a.adminToken, filter("billing", "open"));
    expect(admin).toEqual({
      mine_count: 1,
      assigned_count: 2,
      unassigned_count: 1,
      all_count: 3,
      count: 3,
      current_page: "1",
    });
    // The same question through the general path: the label alone (counted through the conversations), then open by hand.
    const general = await w.h.request("POST", `${w.base}/conversations/filter`, {
      token: w.a.adminToken,
      body: { payload: filter("billing") },
    });
    expect(
      general.body.payload
        .filter((c: any) => c.status === "open")
        .map((c: any) => c.id)
        .sort(),
    ).toEqual([ids[0], ids[1], ids[5]].sort());

    const agent = await meta(w.agent.token, filter("billing", "open"));
    expect(agent).toEqual({
      mine_count: 1,
      assigned_count: 2,
      unassigned_count: 0,
      all_count: 2,
      count: 2,
      current_page: "1",
    });
    expect((await meta(w.a.adminToken, filter("billing", "resolved"))).all_count).toBe(1);
    expect((await meta(w.a.adminToken, filter("other", "open"))).all_count).toBe(1);

    await conv(ids[0]!, "/assignments", { assignee_id: null });
    await conv(ids[2]!, "/toggle_status", { status: "open" });
    expect(await meta(w.a.adminToken, filter("billing", "open"))).toEqual({
      mine_count: 1,
      assigned_count: 1,
      unassigned_count: 3,
      all_count: 4,
      count: 4,
      current_page: "1",
    });

    // The page of "status AND label" comes from the label rows in activity order (migration 020):
    // the same conversations, in the same order, as the general path gives, also after new activity.
    w.h.clock.advance(5000);
    await w.h.request("POST", `${w.base}/conversations/${ids[1]}/messages`, {
      token: w.a.adminToken,
      body: { content: "news", message_type: "incoming" },
    });
    w.h.clock.advance(5000);
    await w.h.request("POST", `${w.base}/conversations/${ids[5]}/messages`, {
      token: w.a.adminToken,
      body: { content: "later news", message_type: "incoming" },
    });
    const list = async (payload: unknown) =>
      (await w.h.request("POST", `${w.base}/conversations/filter`, { token: w.a.adminToken, body: { payload } })).body
        .payload;
    const fast = (await list(filter("billing", "open"))).map((c: any) => c.id);
    const slow = (await list(filter("billing"))).filter((c: any) => c.status === "open").map((c: any) => c.id);
    expect(fast).toEqual(slow);
    expect(fast.slice(0, 2)).toEqual([ids[5], ids[1]]);
  });
});

describe("kept filter counts", () => {
  test("a repeated filter answers the same counts, and a write in between is counted at once", async () => {
    const w = await world();
    const meta = async () =>
      (
        await w.h.request("POST", `${w.base}/conversations/filter`, {
          token: w.a.adminToken,
          body: { payload: filter("vip", "open") },
        })
      ).body.meta;
    const first = await newConversation(w);
    await w.h.request("POST", `${w.base}/conversations/${first.id}/labels`, {
      token: w.a.adminToken,
      body: { labels: ["vip"] },
    });
    expect((await meta()).count).toBe(1);
    expect((await meta()).count).toBe(1);
    const second = await newConversation(w);
    await w.h.request("POST", `${w.base}/conversations/${second.id}/labels`, {
      token: w.a.adminToken,
      body: { labels: ["vip"] },
    });
    expect((await meta()).count).toBe(2);
    await w.h.request("POST", `${w.base}/conversations/${first.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "resolved" },
    });
    expect(await meta()).toMatchObject({ count: 1, all_count: 1 });
  });
});

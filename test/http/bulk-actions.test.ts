// POST bulk_actions: Chatwoot's multi-select changes (labels, status, assignee, team) on many
// conversations at once, each with its activity message and events; all or nothing.
import { describe, expect, test } from "bun:test";
import { addInboxMember, addTeamMember, makeInbox, makeTeam } from "../helpers/directory-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { newConversation, world, type World } from "../helpers/conversation-fixtures.ts";

const bulk = (w: World, body: unknown, token = w.a.adminToken) =>
  w.h.request("POST", `${w.base}/bulk_actions`, { token, body });
const show = async (w: World, id: number) =>
  (await w.h.request("GET", `${w.base}/conversations/${id}`, { token: w.a.adminToken })).body;
const activities = (w: World, displayId: number) =>
  (
    w.h.deps.db
      .query(
        `SELECT m.content FROM messages m JOIN conversations c ON c.id = m.conversation_id
         WHERE c.account_id = ? AND c.display_id = ? AND m.message_type = 2 ORDER BY m.id`,
      )
      .all(w.a.accountId, displayId) as { content: string }[]
  ).map((m) => m.content);

describe("POST bulk_actions", () => {
  test("status for several conversations: 200 with no body, each resolved with its activity and events", async () => {
    const w = await world();
    const one = await newConversation(w);
    const two = await newConversation(w);
    const before = w.h.lastEventId();
    const r = await bulk(w, { type: "Conversation", ids: [one.id, two.id], fields: { status: "resolved" } });
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
    expect((await show(w, one.id)).status).toBe("resolved");
    expect((await show(w, two.id)).status).toBe("resolved");
    expect(activities(w, one.id)).toEqual(["Conversation was marked resolved by Admin"]);
    expect(activities(w, two.id)).toEqual(["Conversation was marked resolved by Admin"]);
    const changed = w.h.events(before).filter((e) => e.kind === "conversation_status_changed");
    expect(changed.map((e) => e.payload.id)).toEqual([one.id, two.id]);
  });

  test("labels: removed, then added, keeping the others; a conversation already right is left alone", async () => {
    const w = await world();
    const one = await newConversation(w);
    const two = await newConversation(w);
    const label = (id: number, labels: string[]) =>
      w.h.request("POST", `${w.base}/conversations/${id}/labels`, { token: w.a.adminToken, body: { labels } });
    await label(one.id, ["vip", "billing"]);
    await label(two.id, ["refund"]);
    const before = w.h.lastEventId();
    const r = await bulk(w, {
      type: "conversation",
      ids: [one.id, String(two.id)],
      labels: { add: ["refund"], remove: ["billing"] },
    });
    expect(r.status).toBe(200);
    expect((await show(w, one.id)).labels).toEqual(["vip", "refund"]);
    expect((await show(w, two.id)).labels).toEqual(["refund"]);
    expect(
      w.h
        .events(before)
        .filter((e) => e.kind === "conversation_updated")
        .map((e) => e.payload.id),
    ).toEqual([one.id]);
  });

  test("assignee and team: set together; team_id 0 removes the team, a null assignee_id unassigns", async () => {
    const w = await world();
    const teamId = makeTeam(w.h, w.a.accountId, "billing");
    addTeamMember(w.h, teamId, w.agent.userId);
    const one = await newConversation(w);
    const two = await newConversation(w);
    const ids = [one.id, two.id];
    expect(
      (await bulk(w, { type: "Conversation", ids, fields: { assignee_id: w.agent.userId, team_id: teamId } })).status,
    ).toBe(200);
    for (const id of ids) {
      const c = await show(w, id);
      expect({ assignee: c.meta.assignee?.id, team: c.meta.team?.id }).toEqual({
        assignee: w.agent.userId,
        team: teamId,
      });
    }
    expect((await bulk(w, { type: "Conversation", ids, fields: { team_id: 0 } })).status).toBe(200);
    expect((await bulk(w, { type: "Conversation", ids, fields: { assignee_id: null, status: null } })).status).toBe(
      200,
    );
    for (const id of ids) {
      const c = await show(w, id);
      expect({ assignee: c.meta.assignee, team: c.meta.team, status: c.status }).toEqual({
        assignee: undefined,
        team: undefined,
        status: "open",
      });
    }
  });

  test("snoozed with snoozed_until", async () => {
    const w = await world();
    const one = await newConversation(w);
    const until = Math.floor(w.h.clock.nowMs() / 1000) + 3600;
    const r = await bulk(w, {
      type: "Conversation",
      ids: [one.id],
      fields: { status: "snoozed" },
      snoozed_until: until,
    });
    expect(r.status).toBe(200);
    const c = await show(w, one.id);
    expect(c.status).toBe("snoozed");
    expect(c.snoozed_until).toBe(new Date(until * 1000).toISOString());
  });

  test("all or nothing: a conversation the agent may not see, or an unknown id, refuses the batch", async () => {
    const w = await world();
    const mine = await newConversation(w);
    const otherInbox = makeInbox(w.h, w.a.accountId, { name: "Other" });
    const notMine = await newConversation(w, { inbox_id: otherInbox });
    const forbidden = await bulk(
      w,
      { type: "Conversation", ids: [mine.id, notMine.id], fields: { status: "resolved" } },
      w.agent.token,
    );
    expect(forbidden.status).toBe(403);
    const unknown = await bulk(w, { type: "Conversation", ids: [mine.id, 9999], fields: { status: "resolved" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe("not_found");
    expect((await show(w, mine.id)).status).toBe("open");
    expect(activities(w, mine.id)).toEqual([]);
    addInboxMember(w.h, otherInbox, w.agent.userId);
    expect(
      (
        await bulk(
          w,
          { type: "Conversation", ids: [mine.id, notMine.id], fields: { status: "pending" } },
          w.agent.token,
        )
      ).status,
    ).toBe(200);
    expect((await show(w, notMine.id)).status).toBe("pending");
  });

  test("an assignee who may not work one of the inboxes refuses the batch (422 naming assignee_id)", async () => {
    const w = await world();
    const one = await newConversation(w);
    const r = await bulk(w, { type: "Conversation", ids: [one.id], fields: { assignee_id: w.outsider.userId } });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].field).toBe("assignee_id");
    expect((await show(w, one.id)).meta.assignee).toBeUndefined();
  });

  test("another account's token is refused; its conversations are not found from here", async () => {
    const w = await world();
    const one = await newConversation(w);
    const other = await makeAccount(w.h, "Globex");
    const stranger = await bulk(
      w,
      { type: "Conversation", ids: [one.id], fields: { status: "resolved" } },
      other.adminToken,
    );
    expect(stranger.status).toBe(401);
    const theirs = await w.h.request("POST", `/api/v1/accounts/${other.accountId}/bulk_actions`, {
      token: other.adminToken,
      body: { type: "Conversation", ids: [one.id], fields: { status: "resolved" } },
    });
    expect(theirs.status).toBe(404);
    expect((await show(w, one.id)).status).toBe("open");
  });

  test("bad input is a 422 naming the field, and changes nothing", async () => {
    const w = await world();
    const one = await newConversation(w);
    const ids = [one.id];
    const cases: [unknown, string][] = [
      [{ ids, fields: { status: "resolved" } }, "type"],
      [{ type: "Contact", ids, fields: { status: "resolved" } }, "type"],
      [{ type: "Conversation", fields: { status: "resolved" } }, "ids"],
      [{ type: "Conversation", ids: [], fields: { status: "resolved" } }, "ids"],
      [{ type: "Conversation", ids: ["x"], fields: { status: "resolved" } }, "ids"],
      [
        { type: "Conversation", ids: Array.from({ length: 1001 }, (_, i) => i + 1), fields: { status: "resolved" } },
        "ids",
      ],
      [{ type: "Conversation", ids }, "fields"],
      [{ type: "Conversation", ids, fields: { status: null } }, "fields"],
      [{ type: "Conversation", ids, fields: "resolved" }, "fields"],
      [{ type: "Conversation", ids, fields: { status: "closed" } }, "fields.status"],
      [{ type: "Conversation", ids, labels: { add: "vip,refund", remove: 3 } }, "labels.remove"],
      [{ type: "Conversation", ids, labels: [] }, "labels"],
      [{ type: "Conversation", ids, fields: { status: "snoozed" }, snoozed_until: "tomorrow" }, "snoozed_until"],
    ];
    for (const [body, field] of cases) {
      const r = await bulk(w, body);
      expect({ field, status: r.status, got: r.body.errors?.[0]?.field }).toEqual({ field, status: 422, got: field });
    }
    expect((await show(w, one.id)).status).toBe("open");
    expect((await show(w, one.id)).labels).toEqual([]);
  });
});

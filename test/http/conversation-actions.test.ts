// toggle_status, toggle_priority, assignments, labels, custom attributes, last-seen marks: the
// resulting state, Chatwoot's activity messages and the events each records.
import { describe, expect, test } from "bun:test";
import { addTeamMember, makeTeam } from "../helpers/directory-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { newConversation, world, type World } from "../helpers/conversation-fixtures.ts";

const post = (w: World, id: number, action: string, body: unknown = {}, token = w.a.adminToken) =>
  w.h.request("POST", `${w.base}/conversations/${id}/${action}`, { token, body });
const activities = (w: World) =>
  (
    w.h.deps.db.query("SELECT content FROM messages WHERE message_type = 2 ORDER BY id").all() as { content: string }[]
  ).map((m) => m.content);

describe("POST toggle_status", () => {
  test("without status toggles open ↔ resolved; records status_changed, resolved/opened and conversation_updated", async () => {
    const w = await world();
    const c = await newConversation(w);
    w.h.clock.advance(2000);
    const before = w.h.lastEventId();
    const r = await post(w, c.id, "toggle_status");
    expect(r.body).toEqual({
      meta: {},
      payload: { success: true, conversation_id: c.id, current_status: "resolved", snoozed_until: null },
    });
    const events = w.h.events(before);
    expect(events.map((e) => e.kind)).toEqual([
      "conversation_status_changed",
      "conversation_resolved",
      "conversation_updated",
      "message_created",
    ]);
    expect(events[0]!.payload.changed_attributes).toBeNull();
    expect(events[0]!.payload).toMatchObject({ id: c.id, status: "resolved", waiting_since: 0 });
    expect(events[2]!.payload.changed_attributes).toEqual([
      { status: { previous_value: "open", current_value: "resolved" } },
      { waiting_since: { previous_value: "2026-01-05T09:00:00.000Z", current_value: null } },
      { updated_at: { previous_value: "2026-01-05T09:00:00.000Z", current_value: "2026-01-05T09:00:02.000Z" } },
    ]);
    expect(events[3]!.payload).toMatchObject({
      message_type: "activity",
      content: "Conversation was marked resolved by Admin",
      sender: null,
    });
    const back = await post(w, c.id, "toggle_status");
    expect(back.body.payload.current_status).toBe("open");
    expect(activities(w)).toEqual(["Conversation was marked resolved by Admin", "Conversation was reopened by Admin"]);
  });

  test("explicit statuses; snoozed_until as Unix seconds or ISO; leaving snoozed clears it", async () => {
    const w = await world();
    const c = await newConversation(w);
    const pending = await post(w, c.id, "toggle_status", { status: "pending" });
    expect(pending.body.payload.current_status).toBe("pending");
    const snoozed = await post(w, c.id, "toggle_status", { status: "snoozed", snoozed_until: "1767700000" });
    expect(snoozed.body.payload).toEqual({
      success: true,
      conversation_id: c.id,
      current_status: "snoozed",
      snoozed_until: "2026-01-06T11:46:40.000Z",
    });
    const iso = await post(w, c.id, "toggle_status", { status: "snoozed", snoozed_until: "2026-01-07T00:00:00Z" });
    expect(iso.body.payload.snoozed_until).toBe("2026-01-07T00:00:00.000Z");
    const open = await post(w, c.id, "toggle_status", { status: "open" });
    expect(open.body.payload).toMatchObject({ current_status: "open", snoozed_until: null });
    expect(activities(w)).toEqual([
      "Conversation was marked as pending by Admin",
      "Conversation was snoozed by Admin",
      "Conversation was reopened by Admin",
    ]);
  });

  test("bad status and bad date are 422 and change nothing", async () => {
    const w = await world();
    const c = await newConversation(w);
    const before = w.h.lastEventId();
    const bad = await post(w, c.id, "toggle_status", { status: "closed" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { field: "status", message: "must be one of: open, resolved, pending, snoozed", code: "invalid" },
    ]);
    const badDate = await post(w, c.id, "toggle_status", { status: "snoozed", snoozed_until: "soon" });
    expect(badDate.body.errors).toEqual([
      { field: "snoozed_until", message: "must be an ISO 8601 date-time or Unix seconds", code: "invalid" },
    ]);
    expect(w.h.events(before)).toEqual([]);
  });

  test("an agent who opens an unassigned conversation takes it", async () => {
    const w = await world();
    const c = await newConversation(w, { status: "pending" });
    await post(w, c.id, "toggle_status", { status: "open" }, w.agent.token);
    const shown = await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.agent.token });
    expect(shown.body.meta.assignee.id).toBe(w.agent.userId);
    expect(activities(w)).toEqual([
      "Conversation was reopened by Ann Agent",
      "Ann Agent self-assigned this conversation",
    ]);
  });

  test("the job opens snoozed conversations whose time has passed, as the system, without an activity message", async () => {
    const w = await world();
    const c = await newConversation(w);
    await post(w, c.id, "toggle_status", { status: "snoozed", snoozed_until: String(1767603600 + 3600) });
    const job = w.h.deps.jobs.find((j) => j.name === "reopen-snoozed")!;
    await job.run();
    expect((await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken })).body.status).toBe(
      "snoozed",
    );
    w.h.clock.advance(3600 * 1000);
    const before = w.h.lastEventId();
    await job.run();
    const events = w.h.events(before);
    expect(events.map((e) => e.kind)).toEqual([
      "conversation_status_changed",
      "conversation_opened",
      "conversation_updated",
    ]);
    expect(events[0]!.actor).toEqual({ type: "system", id: null });
    expect((await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken })).body).toMatchObject(
      { status: "open", snoozed_until: null },
    );
    expect(activities(w)).toEqual(["Conversation was snoozed by Admin"]);
  });

  test("access: outsider agent 403, other account 404, unknown 404", async () => {
    const w = await world();
    const c = await newConversation(w);
    expect((await post(w, c.id, "toggle_status", {}, w.outsider.token)).status).toBe(403);
    const other = await makeAccount(w.h, "Other");
    expect(
      (
        await w.h.request("POST", `/api/v1/accounts/${other.accountId}/conversations/${c.id}/toggle_status`, {
          token: other.adminToken,
          body: {},
        })
      ).status,
    ).toBe(404);
    expect((await post(w, 999, "toggle_status")).status).toBe(404);
  });
});

describe("POST toggle_priority and PATCH", () => {
  test("sets, changes and clears the priority with Chatwoot's activity texts; bad value 422", async () => {
    const w = await world();
    const c = await newConversation(w);
    const r = await post(w, c.id, "toggle_priority", { priority: "high" });
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
    await post(w, c.id, "toggle_priority", { priority: "urgent" });
    const before = w.h.lastEventId();
    await post(w, c.id, "toggle_priority", { priority: "" });
    expect((w.h.events(before)[0]!.payload as any).changed_attributes[0]).toEqual({
      priority: { previous_value: "urgent", current_value: null },
    });
    expect(activities(w)).toEqual([
      "Admin set the priority to high",
      "Admin changed the priority from high to urgent",
      "Admin removed the priority",
    ]);
    const bad = await post(w, c.id, "toggle_priority", { priority: "extreme" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({ field: "priority", code: "invalid" });
  });

  test("PATCH updates priority and merges attributes", async () => {
    const w = await world();
    const c = await newConversation(w, { custom_attributes: { a: 1 }, additional_attributes: { browser: "Firefox" } });
    const r = await w.h.request("PATCH", `${w.base}/conversations/${c.id}`, {
      token: w.a.adminToken,
      body: { priority: "low", custom_attributes: { b: 2 }, additional_attributes: { os: "Linux" } },
    });
    expect(r.body).toMatchObject({
      priority: "low",
      custom_attributes: { a: 1, b: 2 },
      additional_attributes: { browser: "Firefox", os: "Linux" },
    });
  });

  test("POST custom_attributes replaces them", async () => {
    const w = await world();
    const c = await newConversation(w, { custom_attributes: { a: 1 } });
    const before = w.h.lastEventId();
    const r = await post(w, c.id, "custom_attributes", { custom_attributes: { b: 2 } });
    expect(r.body).toEqual({ custom_attributes: { b: 2 } });
    const [e] = w.h.events(before);
    expect(e!.kind).toBe("conversation_updated");
    expect((e!.payload as any).changed_attributes[0]).toEqual({
      custom_attributes: { previous_value: { a: 1 }, current_value: { b: 2 } },
    });
    expect((await post(w, c.id, "custom_attributes", { custom_attributes: "x" })).status).toBe(422);
  });
});

describe("POST assignments", () => {
  test("assigns an agent (answers the Agent), unassigns with null (answers null), with activity and events", async () => {
    const w = await world();
    const c = await newConversation(w);
    const before = w.h.lastEventId();
    const r = await post(w, c.id, "assignments", { assignee_id: w.agent.userId });
    expect(r.body).toMatchObject({ id: w.agent.userId, name: "Ann Agent", role: "agent", account_id: w.a.accountId });
    expect(w.h.events(before).map((e) => e.kind)).toEqual([
      "conversation_updated",
      "assignee_changed",
      "message_created",
    ]);
    expect((w.h.events(before)[0]!.payload as any).meta.assignee).toMatchObject({ id: w.agent.userId, type: "user" });
    const un = await post(w, c.id, "assignments", { assignee_id: null });
    expect(un.body).toBeNull();
    expect(activities(w)).toEqual(["Assigned to Ann Agent by Admin", "Conversation unassigned by Admin"]);
  });

  test("a team: answers the team; drops an assignee not in it; both at once with a non-member is 422", async () => {
    const w = await world();
    const team = makeTeam(w.h, w.a.accountId, "sales");
    const c = await newConversation(w, { assignee_id: w.agent.userId });
    const r = await post(w, c.id, "assignments", { team_id: team });
    expect(r.body).toEqual({
      id: team,
      name: "sales",
      description: null,
      allow_auto_assign: true,
      account_id: w.a.accountId,
      is_member: false,
    });
    const shown = (await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken })).body;
    expect(shown.meta.assignee).toBeUndefined();
    expect(shown.meta.team.id).toBe(team);
    const both = await post(w, c.id, "assignments", { team_id: team, assignee_id: w.agent.userId });
    expect(both.status).toBe(422);
    expect(both.body.errors[0]).toMatchObject({ field: "assignee_id", code: "invalid" });
    addTeamMember(w.h, team, w.agent.userId);
    expect((await post(w, c.id, "assignments", { team_id: team, assignee_id: w.agent.userId })).body.id).toBe(
      w.agent.userId,
    );
    await post(w, c.id, "assignments", { team_id: null });
    expect(activities(w)).toEqual([
      "Assigned to Ann Agent by Admin",
      "Assigned to sales by Admin",
      "Assigned to Ann Agent by Admin",
      "Unassigned from sales by Admin",
    ]);
  });

  test("bad assignees and teams are 422; nothing given is 422", async () => {
    const w = await world();
    const other = await makeAccount(w.h, "Other");
    const c = await newConversation(w);
    expect((await post(w, c.id, "assignments", { assignee_id: other.adminId })).body.errors[0]).toMatchObject({
      field: "assignee_id",
      code: "not_found",
    });
    expect((await post(w, c.id, "assignments", { assignee_id: w.outsider.userId })).body.errors[0]).toMatchObject({
      field: "assignee_id",
      code: "invalid",
    });
    expect((await post(w, c.id, "assignments", { team_id: 999 })).body.errors[0]).toMatchObject({
      field: "team_id",
      code: "not_found",
    });
    expect((await post(w, c.id, "assignments", {})).status).toBe(422);
    expect((await post(w, c.id, "assignments", { assignee_id: "abc" })).status).toBe(422);
  });
});

describe("labels and last seen", () => {
  test("labels replace the list; activity names what was added and removed; conversation_updated has label_list", async () => {
    const w = await world();
    const c = await newConversation(w);
    expect((await post(w, c.id, "labels", { labels: ["billing", "vip"] })).body).toEqual({
      payload: ["billing", "vip"],
    });
    const before = w.h.lastEventId();
    expect((await post(w, c.id, "labels", { labels: ["vip", "churn"] })).body).toEqual({ payload: ["vip", "churn"] });
    const updated = w.h.events(before).find((e) => e.kind === "conversation_updated")!;
    expect(updated.payload.changed_attributes).toContainEqual({
      label_list: { previous_value: ["billing", "vip"], current_value: ["vip", "churn"] },
    });
    expect(updated.payload.labels).toEqual(["vip", "churn"]);
    expect(
      (await w.h.request("GET", `${w.base}/conversations/${c.id}/labels`, { token: w.a.adminToken })).body,
    ).toEqual({ payload: ["vip", "churn"] });
    expect(activities(w)).toEqual(["Admin added billing, vip", "Admin added churn", "Admin removed billing"]);
  });

  test("update_last_seen sets agent_last_seen_at (and the assignee's) and reads the contact's messages; unread moves it before the last incoming message", async () => {
    const w = await world();
    const c = await newConversation(w, { assignee_id: w.agent.userId });
    const hi = await w.h.request("POST", `${w.base}/conversations/${c.id}/messages`, {
      token: w.a.adminToken,
      body: { content: "hi", message_type: "incoming" },
    });
    expect(hi.body.status).toBe("sent");
    w.h.clock.advance(10_000);
    const before = w.h.lastEventId();
    const seen = await post(w, c.id, "update_last_seen", {}, w.agent.token);
    expect(seen.body).toMatchObject({
      agent_last_seen_at: 1767603610,
      assignee_last_seen_at: 1767603610,
      unread_count: 0,
    });
    // The contact's message is read now (the website chat shows "Read"): one message_updated.
    expect(w.h.events(before).map((e) => [e.kind, e.payload.id])).toEqual([["message_updated", hi.body.id]]);
    const listed = await w.h.request("GET", `${w.base}/conversations/${c.id}/messages`, { token: w.agent.token });
    expect(listed.body.payload.find((m: { id: number }) => m.id === hi.body.id).status).toBe("read");
    const again = w.h.lastEventId();
    await post(w, c.id, "update_last_seen", {}, w.agent.token);
    expect(w.h.events(again)).toEqual([]); // nothing left to read
    const unread = await post(w, c.id, "unread", {}, w.agent.token);
    expect(unread.body).toMatchObject({ agent_last_seen_at: 1767603599, unread_count: 1 });
  });
});

// Automation actions that change the conversation (labels, assignment, status, priority): an incoming "go"
// fires a rule with the action; each test checks the resulting state and the events recorded with actor automation.
import { describe, expect, test } from "bun:test";
import { addTeamMember, makeTeam } from "../helpers/directory-fixtures.ts";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";
import {
  act,
  automationEvents,
  conversation,
  incoming,
  kinds,
  labelsOf,
  messagesOf,
  rule,
  ruleState,
  settle,
} from "../helpers/automation-fixtures.ts";

describe("labels", () => {
  test("add_label adds to what is there, in any case (label records only, titles lower-cased)", async () => {
    const w = await world();
    const c = await newConversation(w);
    await w.h.request("POST", `${w.base}/conversations/${c.id}/labels`, {
      token: w.a.adminToken,
      body: { labels: ["VIP"] },
    });
    const r = await rule(w, {
      name: "Act",
      event_name: "message_created",
      conditions: [{ attribute_key: "content", filter_operator: "equal_to", values: ["go"] }],
      actions: [{ action_name: "add_label", action_params: ["Billing", "vip"] }],
    });
    await settle(w);
    const after = w.h.lastEventId();
    await incoming(w, c.id, "go");
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual(["VIP", "billing"]);
    expect(kinds(w, after, r.id)).toEqual(["conversation_updated", "message_created"]);
    expect(messagesOf(w, c.id).at(-1)!.content).toBe("Automation System added billing");
  });

  test("remove_label takes titles off in any case", async () => {
    const w = await world();
    const c = await newConversation(w);
    await w.h.request("POST", `${w.base}/conversations/${c.id}/labels`, {
      token: w.a.adminToken,
      body: { labels: ["Spam", "vip"] },
    });
    const r = await rule(w, {
      name: "Act",
      event_name: "message_created",
      conditions: [{ attribute_key: "labels", filter_operator: "contains", values: ["spam"] }],
      actions: [{ action_name: "remove_label", action_params: ["spam"] }],
    });
    const after = w.h.lastEventId();
    await incoming(w, c.id, "hello");
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual(["vip"]);
    expect(kinds(w, after, r.id)).toEqual(["conversation_updated", "message_created"]);
    expect(messagesOf(w, c.id).at(-1)!.content).toBe("Automation System removed Spam");
  });
});

describe("assignment", () => {
  test('assign_agent assigns an inbox member; ["nil"] unassigns', async () => {
    const w = await world();
    const x = await act(w, [{ action_name: "assign_agent", action_params: [w.agent.userId] }]);
    expect((await conversation(w, x.id)).meta.assignee.id).toBe(w.agent.userId);
    expect(kinds(w, x.after, x.ruleId)).toEqual(["conversation_updated", "assignee_changed", "message_created"]);
    expect(messagesOf(w, x.id).at(-1)!.content).toBe("Assigned to Ann Agent by Automation System");
    const y = await act(w, [{ action_name: "assign_agent", action_params: ["nil"] }], { assignee_id: w.agent.userId });
    expect((await conversation(w, y.id)).meta.assignee).toBeUndefined();
    expect(messagesOf(w, y.id).at(-1)!.content).toBe("Conversation unassigned by Automation System");
  });

  test("assign_agent skips an agent who is not in the conversation's inbox, without failing the rule", async () => {
    const w = await world();
    const x = await act(w, [{ action_name: "assign_agent", action_params: [w.outsider.userId] }]);
    expect((await conversation(w, x.id)).meta.assignee).toBeUndefined();
    expect(automationEvents(w, x.after)).toEqual([]);
    expect((await ruleState(w, x.ruleId)).failure_count).toBe(0);
  });

  test('assign_team sets the team (dropping an assignee outside it); ["nil"], [0] and [] unassign', async () => {
    const w = await world();
    const team = makeTeam(w.h, w.a.accountId, "sales");
    const x = await act(w, [{ action_name: "assign_team", action_params: [team] }], { assignee_id: w.agent.userId });
    const c = await conversation(w, x.id);
    expect(c.meta.team.id).toBe(team);
    expect(c.meta.assignee).toBeUndefined();
    expect(kinds(w, x.after, x.ruleId)).toEqual([
      "conversation_updated",
      "assignee_changed",
      "team_changed",
      "message_created",
    ]);
    for (const params of [["nil"], [0], []]) {
      const y = await act(w, [{ action_name: "assign_team", action_params: params }], { team_id: team });
      expect((await conversation(w, y.id)).meta.team).toBeUndefined();
    }
    addTeamMember(w.h, team, w.agent.userId);
    const kept = await act(w, [{ action_name: "assign_team", action_params: [team] }], { assignee_id: w.agent.userId });
    expect((await conversation(w, kept.id)).meta.assignee.id).toBe(w.agent.userId);
  });
});

describe("status and priority", () => {
  test.each([
    ["resolve_conversation", [], "resolved", "Conversation was marked resolved by Automation System"],
    ["change_status", ["pending"], "pending", "Conversation was marked as pending by Automation System"],
    ["snooze_conversation", [], "snoozed", "Conversation was snoozed by Automation System"],
  ])("%s %j → %s", async (action, params, status, activity) => {
    const w = await world();
    const x = await act(w, [{ action_name: action, action_params: params }]);
    const c = await conversation(w, x.id);
    expect([c.status, c.snoozed_until]).toEqual([status, null]);
    expect(messagesOf(w, x.id).at(-1)!.content).toBe(activity);
    const expected = [
      "conversation_status_changed",
      ...(status === "resolved" ? ["conversation_resolved"] : []),
      "conversation_updated",
      "message_created",
    ];
    expect(kinds(w, x.after, x.ruleId)).toEqual(expected);
  });

  test("snooze_conversation with a time snoozes until it; open_conversation reopens", async () => {
    const w = await world();
    const until = Math.floor(w.h.clock.nowMs() / 1000) + 3600;
    const x = await act(w, [{ action_name: "snooze_conversation", action_params: [until] }]);
    expect((await conversation(w, x.id)).snoozed_until).toBe(new Date(until * 1000).toISOString());
    await w.h.request("DELETE", `${w.base}/automation_rules/${x.ruleId}`, { token: w.a.adminToken });
    const y = await act(w, [{ action_name: "open_conversation", action_params: [] }], { status: "pending" });
    expect((await conversation(w, y.id)).status).toBe("open");
    expect(kinds(w, y.after, y.ruleId)).toEqual([
      "conversation_status_changed",
      "conversation_opened",
      "conversation_updated",
      "message_created",
    ]);
  });

  test('change_priority sets it; ["nil"] clears it', async () => {
    const w = await world();
    const x = await act(w, [{ action_name: "change_priority", action_params: ["urgent"] }]);
    expect((await conversation(w, x.id)).priority).toBe("urgent");
    expect(kinds(w, x.after, x.ruleId)).toEqual(["conversation_updated", "message_created"]);
    expect(messagesOf(w, x.id).at(-1)!.content).toBe("Automation System set the priority to urgent");
    await w.h.request("DELETE", `${w.base}/automation_rules/${x.ruleId}`, { token: w.a.adminToken });
    await act(w, [{ action_name: "change_priority", action_params: ["nil"] }]);
    await incoming(w, x.id, "go");
    await settle(w);
    expect((await conversation(w, x.id)).priority).toBeNull();
  });

  test("mute_conversation resolves and blocks the contact: new messages no longer reopen it", async () => {
    const w = await world();
    const x = await act(w, [{ action_name: "mute_conversation", action_params: [] }]);
    const c = await conversation(w, x.id);
    expect([c.status, c.muted, c.meta.sender.blocked]).toEqual(["resolved", true, true]);
    expect(kinds(w, x.after, x.ruleId)).toEqual([
      "contact_updated",
      "conversation_status_changed",
      "conversation_resolved",
      "conversation_updated",
      "message_created",
      "message_created",
    ]);
    expect(
      messagesOf(w, x.id)
        .slice(-2)
        .map((m) => m.content),
    ).toEqual([
      "Conversation was marked resolved by Automation System",
      "Automation System has muted the conversation",
    ]);
    await incoming(w, x.id, "hello?");
    expect((await conversation(w, x.id)).status).toBe("resolved");
  });
});

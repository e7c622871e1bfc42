// Every automation action through the engine: an incoming message "go" fires a rule with the action;
// each test checks the resulting state and the events recorded with actor automation (the rule).
import { afterEach, describe, expect, test } from "bun:test";
import { addTeamMember, makeTeam } from "../helpers/directory-fixtures.ts";
import { newConversation, world, type World } from "../helpers/conversation-fixtures.ts";
import {
  automationEvents,
  conversation,
  incoming,
  labelsOf,
  messagesOf,
  rule,
  ruleState,
  settle,
  storeRule,
} from "../helpers/automation-fixtures.ts";
import { startReceiver, type Receiver } from "../helpers/webhooks.ts";

/** Creates a rule with these actions on message_created, sends "go", lets the engine run. */
async function act(w: World, actions: unknown[], body: Record<string, unknown> = {}) {
  const r = await rule(w, {
    name: "Act",
    event_name: "message_created",
    conditions: [{ attribute_key: "content", filter_operator: "equal_to", values: ["go"] }],
    actions,
  });
  const c = await newConversation(w, body);
  await settle(w);
  const after = w.h.lastEventId();
  await incoming(w, c.id, "go");
  await settle(w);
  return { ruleId: r.id as number, id: c.id as number, after };
}

const kinds = (w: World, after: number, ruleId: number) => {
  const events = automationEvents(w, after);
  expect(events.every(([, id]) => id === ruleId)).toBe(true);
  return events.map(([kind]) => kind);
};

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

describe("messages", () => {
  test("send_message writes an outgoing message with no sender, marked with the rule; not a human reply", async () => {
    const w = await world();
    const x = await act(w, [{ action_name: "send_message", action_params: ["Thanks, we are on it"] }]);
    const m = messagesOf(w, x.id).at(-1)!;
    expect(m).toEqual({
      content: "Thanks, we are on it",
      message_type: 1,
      private: 0,
      sender_type: null,
      content_attributes: { automation_rule_id: x.ruleId },
    });
    expect(kinds(w, x.after, x.ruleId)).toEqual(["message_created"]);
    const c = await conversation(w, x.id);
    expect(c.first_reply_created_at).toBe(0);
    expect(c.waiting_since).toBeGreaterThan(0);
  });

  test("add_private_note writes a private note", async () => {
    const w = await world();
    const x = await act(w, [{ action_name: "add_private_note", action_params: ["Check the order first"] }]);
    expect(messagesOf(w, x.id).at(-1)).toEqual({
      content: "Check the order first",
      message_type: 1,
      private: 1,
      sender_type: null,
      content_attributes: { automation_rule_id: x.ruleId },
    });
    const events = w.h.events(x.after).filter((e) => e.actor.type === "automation");
    expect(events.map((e) => [e.kind, e.private])).toEqual([["message_created", true]]);
  });

  test("send_email_to_team and send_email_transcript leave the unsent email as a private note", async () => {
    const w = await world();
    const team = makeTeam(w.h, w.a.accountId, "billing");
    const x = await act(w, [
      { action_name: "send_email_to_team", action_params: [{ team_ids: [team], message: "A refund request came in" }] },
      { action_name: "send_email_transcript", action_params: ["boss@example.com, {{contact.email}}"] },
    ]);
    expect(
      messagesOf(w, x.id)
        .slice(-2)
        .map((m) => [m.content, m.private]),
    ).toEqual([
      [
        'Automation rule "Act" would have emailed team billing (not sent: Parley has no mailer): A refund request came in',
        1,
      ],
      [
        'Automation rule "Act" would have emailed the transcript to boss@example.com, {{contact.email}} (not sent: Parley has no mailer)',
        1,
      ],
    ]);
    expect(kinds(w, x.after, x.ruleId)).toEqual(["message_created", "message_created"]);
    expect((await ruleState(w, x.ruleId)).failure_count).toBe(0);
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

describe("send_webhook_event", () => {
  let receiver: Receiver | null = null;
  afterEach(async () => {
    await receiver?.stop();
    receiver = null;
  });

  test("POSTs the conversation with event automation_event.<event>, through the durable deliveries", async () => {
    const w = await world({ config: { allowPrivateWebhooks: true } });
    receiver = startReceiver();
    const x = await act(w, [{ action_name: "send_webhook_event", action_params: [receiver.url] }]);
    await w.h.deps.deliverer.drain();
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.json).toMatchObject({
      event: "automation_event.message_created",
      id: x.id,
      inbox_id: w.inboxId,
      status: "open",
    });
    expect(got.json.meta.sender.email).toBe("carla@example.com");
    expect(got.headers.get("x-chatwoot-delivery")).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.headers.get("x-chatwoot-signature")).toBeNull();
    const rows = w.h.deps.db.query("SELECT status, attempts, webhook_id, target_key FROM webhook_deliveries").all();
    expect(rows).toEqual([
      { status: "delivered", attempts: 1, webhook_id: null, target_key: `automation:${x.ruleId}` },
    ]);
  });

  test("private addresses are refused unless PARLEY_ALLOW_PRIVATE_WEBHOOKS is set", async () => {
    const w = await world();
    receiver = startReceiver();
    await act(w, [{ action_name: "send_webhook_event", action_params: [receiver.url] }]);
    await w.h.deps.deliverer.drain();
    expect(receiver.received).toHaveLength(0);
    const row = w.h.deps.db.query("SELECT status, last_error FROM webhook_deliveries").get() as {
      status: string;
      last_error: string;
    };
    expect(row.status).toBe("failed");
    expect(row.last_error).toStartWith("blocked:");
  });
});

describe("send_attachment", () => {
  test("a rule stored with it (the API refuses it) fails at run time and says why", async () => {
    const w = await world();
    const id = storeRule(
      w,
      "file",
      [{ attribute_key: "content", filter_operator: "equal_to", values: ["go"] }],
      [
        { action_name: "send_attachment", action_params: [1] },
        { action_name: "add_private_note", action_params: ["still runs"] },
      ],
    );
    const c = await newConversation(w);
    await incoming(w, c.id, "go");
    await settle(w);
    expect(await ruleState(w, id)).toMatchObject({
      failure_count: 1,
      last_error: "send_attachment: send_attachment is not supported: Parley stores no attachment files",
    });
    expect(messagesOf(w, c.id).at(-1)!.content).toBe("still runs");
  });
});

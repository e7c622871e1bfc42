// The automation engine's safeguards: rules never trigger rules, failing rules are switched off,
// and one account's rules never see another's events.
import { describe, expect, test } from "bun:test";
import { makeAccount } from "../helpers/factories.ts";
import { world } from "../helpers/conversation-fixtures.ts";
import {
  automationEvents,
  freshConversation,
  incoming,
  labelsOf,
  messagesOf,
  refundRule,
  rule,
  ruleState,
  settle,
  storeRule,
} from "../helpers/automation-fixtures.ts";

describe("loop prevention", () => {
  test("a rule whose action raises its own event runs once", async () => {
    const w = await world();
    const r = await rule(w, {
      name: "echo",
      event_name: "message_created",
      conditions: [{ attribute_key: "content", filter_operator: "is_present", values: [] }],
      actions: [{ action_name: "send_message", action_params: ["We got your message"] }],
    });
    const c = await freshConversation(w);
    await incoming(w, c.id, "hi");
    for (let i = 0; i < 4; i++) await settle(w);
    expect(messagesOf(w, c.id).filter((m) => m.content === "We got your message")).toHaveLength(1);
    expect(automationEvents(w, c.after).filter(([kind]) => kind === "message_created")).toEqual([
      ["message_created", r.id],
    ]);
  });

  test("two rules that would undo each other forever act once: events caused by automation trigger nothing", async () => {
    const w = await world();
    const reopen = await rule(w, {
      name: "never resolved",
      event_name: "conversation_updated",
      conditions: [
        { attribute_key: "status", filter_operator: "attribute_changed", values: { from: ["open"], to: ["resolved"] } },
      ],
      actions: [{ action_name: "open_conversation" }],
    });
    const resolve = await rule(w, {
      name: "never open",
      event_name: "conversation_opened",
      conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"] }],
      actions: [{ action_name: "resolve_conversation" }],
    });
    const c = await freshConversation(w);
    await w.h.request("POST", `${w.base}/conversations/${c.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "resolved" },
    });
    for (let i = 0; i < 4; i++) await settle(w);
    expect((await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken })).body.status).toBe(
      "open",
    );
    expect(messagesOf(w, c.id).map((m) => m.content)).toEqual([
      "Conversation was marked resolved by Admin",
      "Conversation was reopened by Automation System",
    ]);
    expect(new Set(automationEvents(w, c.after).map(([, id]) => id))).toEqual(new Set([reopen.id]));
    expect((await ruleState(w, resolve.id)).failure_count).toBe(0);
  });

  test("rules of one event run in id order over the conversation as the earlier ones left it", async () => {
    const w = await world();
    const a = await rule(w, {
      name: "a",
      event_name: "conversation_updated",
      conditions: [{ attribute_key: "labels", filter_operator: "contains", values: ["one"] }],
      actions: [{ action_name: "add_label", action_params: ["two"] }],
    });
    const b = await rule(w, {
      name: "b",
      event_name: "conversation_updated",
      conditions: [{ attribute_key: "labels", filter_operator: "contains", values: ["two"] }],
      actions: [{ action_name: "add_label", action_params: ["three"] }],
    });
    const c = await freshConversation(w);
    await w.h.request("POST", `${w.base}/conversations/${c.id}/labels`, {
      token: w.a.adminToken,
      body: { labels: ["one"] },
    });
    for (let i = 0; i < 3; i++) await settle(w);
    expect(await labelsOf(w, c.id)).toEqual(["one", "two", "three"]);
    expect(automationEvents(w, c.after).filter(([kind]) => kind === "conversation_updated")).toEqual([
      ["conversation_updated", a.id],
      ["conversation_updated", b.id],
    ]);
  });
});

describe("failing rules", () => {
  test("one failing action does not stop the next; three failing runs in a row switch the rule off", async () => {
    const w = await world();
    const team = await w.h.request("POST", `${w.base}/teams`, { token: w.a.adminToken, body: { name: "gone" } });
    const r = await rule(w, {
      ...refundRule(),
      actions: [
        { action_name: "assign_team", action_params: [team.body.id] },
        { action_name: "add_label", action_params: ["billing"] },
      ],
    });
    await w.h.request("DELETE", `${w.base}/teams/${team.body.id}`, { token: w.a.adminToken });
    const error = `assign_team: no team ${team.body.id} in this account`;
    for (let run = 1; run <= 3; run++) {
      const c = await freshConversation(w);
      await incoming(w, c.id, "refund");
      await settle(w);
      expect(await labelsOf(w, c.id)).toEqual(["billing"]);
      expect(await ruleState(w, r.id)).toMatchObject({ failure_count: run, last_error: error, active: run < 3 });
    }
    expect((await ruleState(w, r.id)).disabled_reason).toBe(
      `switched off after 3 consecutive failed runs; last error: ${error}`,
    );
    const c = await freshConversation(w);
    await incoming(w, c.id, "refund");
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual([]);
    const on = await w.h.request("PATCH", `${w.base}/automation_rules/${r.id}`, {
      token: w.a.adminToken,
      body: { active: true },
    });
    expect(on.body.payload).toMatchObject({ active: true, failure_count: 0, disabled_reason: null, last_error: error });
  });

  test("a clean run resets the count", async () => {
    const w = await world();
    const r = await rule(w, {
      ...refundRule(),
      actions: [{ action_name: "assign_agent", action_params: [w.agent.userId] }],
    });
    const services = w.h.deps.services;
    await w.h.request("DELETE", `${w.base}/agents/${w.agent.userId}`, { token: w.a.adminToken });
    for (let i = 0; i < 2; i++) {
      const c = await freshConversation(w);
      await incoming(w, c.id, "refund");
      await settle(w);
    }
    expect(await ruleState(w, r.id)).toMatchObject({
      failure_count: 2,
      active: true,
      last_error: `assign_agent: no agent ${w.agent.userId} in this account`,
    });
    await services.accounts.addMember(w.a.accountId, w.agent.userId, "administrator");
    const c = await freshConversation(w);
    await incoming(w, c.id, "refund");
    await settle(w);
    expect(await ruleState(w, r.id)).toMatchObject({ failure_count: 0, active: true });
    expect(
      (await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken })).body.meta.assignee.id,
    ).toBe(w.agent.userId);
  });

  test("conditions that cannot be evaluated (a rule stored behind the API's back) count as failures", async () => {
    const w = await world();
    const id = storeRule(
      w,
      "broken",
      [{ attribute_key: "bad key!", filter_operator: "equal_to", values: ["x"] }],
      [{ action_name: "resolve_conversation", action_params: [] }],
    );
    const c = await freshConversation(w);
    for (let i = 0; i < 3; i++) await incoming(w, c.id, `message ${i}`);
    await settle(w);
    const state = await ruleState(w, id);
    expect(state).toMatchObject({ active: false, failure_count: 3 });
    expect(state.last_error).toBe("conditions: condition 0: attribute_key Attribute key bad key! is not supported");
    expect((await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken })).body.status).toBe(
      "open",
    );
  });
});

describe("tenant isolation", () => {
  test("another account's rules never see this account's events", async () => {
    const w = await world();
    const other = await makeAccount(w.h, "Other");
    await w.h.request("POST", `/api/v1/accounts/${other.accountId}/labels`, {
      token: other.adminToken,
      body: { title: "billing" },
    });
    const theirs = await w.h.request("POST", `/api/v1/accounts/${other.accountId}/automation_rules`, {
      token: other.adminToken,
      body: refundRule(),
    });
    expect(theirs.status).toBe(200);
    const c = await freshConversation(w);
    await incoming(w, c.id, "refund");
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual([]);
    expect(automationEvents(w, c.after)).toEqual([]);
  });
});

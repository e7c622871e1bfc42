// The automation engine end to end: events caused through the real API reach the rules over the
// bus, and matching rules act through the services as actor `automation`, on every trigger.
import { describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { newConversation, send, world } from "../helpers/conversation-fixtures.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";
import {
  automationEvents,
  freshConversation,
  hitRule,
  incoming,
  label,
  labelsOf,
  messagesOf,
  refundRule,
  rule,
  ruleState,
  settle,
} from "../helpers/automation-fixtures.ts";

describe("the spec's example rule", () => {
  test("an incoming message containing 'refund' gets the conversation labelled billing, by automation", async () => {
    const w = await world();
    const r = await rule(w, refundRule());
    const c = await freshConversation(w);
    await incoming(w, c.id, "Hello, I would like a REFUND for order 42");
    // The rule acts after the request's commit, in its own transaction, as actor automation: the
    // label change is a separate event after the message's (whether the listener has run by the
    // time the response arrives depends on group commit's timing, so it is not asserted).
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual(["billing"]);
    expect(automationEvents(w, c.after)).toEqual([
      ["conversation_updated", r.id],
      ["message_created", r.id],
    ]);
    const created = w.h.events(c.after).find((e) => e.kind === "message_created" && e.actor.type !== "automation")!;
    expect(
      w.h
        .events(c.after)
        .filter((e) => e.actor.type === "automation")
        .every((e) => e.id > created.id),
    ).toBe(true);
    const updated = w.h
      .events(c.after)
      .find((e) => e.kind === "conversation_updated" && e.actor.type === "automation")!;
    expect((updated.payload.changed_attributes as unknown[])[0]).toEqual({
      label_list: { previous_value: [], current_value: ["billing"] },
    });
    expect(messagesOf(w, c.id).at(-1)).toMatchObject({ content: "Automation System added billing", message_type: 2 });
    expect(await ruleState(w, r.id)).toMatchObject({ active: true, failure_count: 0, last_error: null });
  });

  test("a message without the word leaves the conversation alone", async () => {
    const w = await world();
    await rule(w, refundRule());
    const c = await freshConversation(w);
    await incoming(w, c.id, "Where is my parcel?");
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual([]);
    expect(automationEvents(w, c.after)).toEqual([]);
  });
});

describe("conditions", () => {
  test("AND binds tighter than OR: 'alpha OR beta AND gamma'", async () => {
    const w = await world();
    const has = (word: string, q: string | null) => ({
      attribute_key: "content",
      filter_operator: "contains",
      values: [word],
      query_operator: q,
    });
    await hitRule(w, "message_created", [has("alpha", "or"), has("beta", "and"), has("gamma", null)]);
    const outcomes: [string, boolean][] = [
      ["alpha", true],
      ["beta", false],
      ["gamma", false],
      ["beta gamma", true],
      ["nothing", false],
    ];
    for (const [text, expected] of outcomes) {
      const c = await freshConversation(w);
      await incoming(w, c.id, text);
      await settle(w);
      expect([text, (await labelsOf(w, c.id)).includes("hit")]).toEqual([text, expected]);
    }
  });

  test("an inactive rule does nothing until it is switched on", async () => {
    const w = await world();
    const r = await rule(w, { ...refundRule(), active: false });
    const c = await freshConversation(w);
    await incoming(w, c.id, "refund please");
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual([]);
    await w.h.request("PATCH", `${w.base}/automation_rules/${r.id}`, { token: w.a.adminToken, body: { active: true } });
    await incoming(w, c.id, "refund please, again");
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual(["billing"]);
  });

  test("a deleted rule does nothing; a changed rule acts on its new conditions at once", async () => {
    const w = await world();
    const r = await rule(w, refundRule());
    const c = await freshConversation(w);
    await w.h.request("PATCH", `${w.base}/automation_rules/${r.id}`, {
      token: w.a.adminToken,
      body: { conditions: [{ attribute_key: "content", filter_operator: "contains", values: ["invoice"] }] },
    });
    await incoming(w, c.id, "refund");
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual([]);
    await incoming(w, c.id, "invoice");
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual(["billing"]);
    await w.h.request("DELETE", `${w.base}/automation_rules/${r.id}`, { token: w.a.adminToken });
    await w.h.request("POST", `${w.base}/conversations/${c.id}/labels`, {
      token: w.a.adminToken,
      body: { labels: [] },
    });
    await incoming(w, c.id, "invoice again");
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual([]);
  });

  test("activity messages are not messages: a message_created rule ignores them", async () => {
    const w = await world();
    await hitRule(w, "message_created", [
      { attribute_key: "content", filter_operator: "contains", values: ["resolved"] },
    ]);
    const c = await freshConversation(w);
    await w.h.request("POST", `${w.base}/conversations/${c.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "resolved" },
    });
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual([]);
  });
});

describe("triggers", () => {
  test("conversation_created, _opened, _resolved and _updated each run their rules", async () => {
    const w = await world();
    await rule(w, {
      name: "new",
      event_name: "conversation_created",
      conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"] }],
      actions: [{ action_name: "add_label", action_params: ["new"] }],
    });
    await rule(w, {
      name: "done",
      event_name: "conversation_resolved",
      conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["resolved"] }],
      actions: [{ action_name: "add_label", action_params: ["done"] }],
    });
    await rule(w, {
      name: "again",
      event_name: "conversation_opened",
      conditions: [{ attribute_key: "labels", filter_operator: "contains", values: ["done"] }],
      actions: [{ action_name: "add_label", action_params: ["reopened"] }],
    });
    await rule(w, {
      name: "urgent",
      event_name: "conversation_updated",
      conditions: [
        { attribute_key: "priority", filter_operator: "attribute_changed", values: { from: ["nil"], to: ["urgent"] } },
      ],
      actions: [{ action_name: "add_label", action_params: ["escalated"] }],
    });
    const c = await newConversation(w);
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual(["new"]);
    const toggle = (status: string) =>
      w.h.request("POST", `${w.base}/conversations/${c.id}/toggle_status`, { token: w.a.adminToken, body: { status } });
    await toggle("resolved");
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual(["new", "done"]);
    await toggle("open");
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual(["new", "done", "reopened"]);
    await w.h.request("POST", `${w.base}/conversations/${c.id}/toggle_priority`, {
      token: w.a.adminToken,
      body: { priority: "urgent" },
    });
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual(["new", "done", "reopened", "escalated"]);
  });

  test("conversation_created skips conversations an auto-reply opened", async () => {
    const w = await world();
    await hitRule(w, "conversation_created", [
      { attribute_key: "status", filter_operator: "equal_to", values: ["open"] },
    ]);
    const auto = await newConversation(w, { additional_attributes: { auto_reply: true } });
    const plain = await newConversation(w);
    await settle(w);
    expect(await labelsOf(w, auto.id)).toEqual([]);
    expect(await labelsOf(w, plain.id)).toEqual(["hit"]);
  });

  test("agents' outgoing replies trigger message_created rules too (message_type tells them apart)", async () => {
    const w = await world();
    await hitRule(w, "message_created", [
      { attribute_key: "message_type", filter_operator: "equal_to", values: ["outgoing"] },
    ]);
    const c = await freshConversation(w);
    await incoming(w, c.id, "question");
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual([]);
    expect((await send(w, c.id, { content: "answer" }, w.agent.token)).status).toBe(200);
    await settle(w);
    expect(await labelsOf(w, c.id)).toEqual(["hit"]);
  });
});

describe.skipIf(TEST_ENGINE !== "postgres")("PostgreSQL: rules run with nothing in place", () => {
  test("a message no rule matches, and a rule whose action labels the conversation: reads pooled, writes awaited", async () => {
    const w = await world();
    const r = await rule(w, refundRule());
    const c = await freshConversation(w);
    await incoming(w, c.id, "Hello"); // the account's rules for the event read and compiled once
    await settle(w);

    await incoming(w, c.id, "Where is my parcel?");
    const missed = await blockingDuring(() => settle(w));
    expect(missed).toEqual([]);

    // The conditions' reads (the conversation, its message, contact and labels) on the read pool; the
    // action (the label, its activity message, their events) an awaited body; the run's record a read.
    await incoming(w, c.id, "I want a refund");
    const matched = await blockingDuring(() => settle(w));
    expect(matched).toEqual([]);
    expect(await labelsOf(w, c.id)).toEqual(["billing"]);
    expect(messagesOf(w, c.id).at(-1)).toMatchObject({ content: "Automation System added billing", message_type: 2 });
    expect(await ruleState(w, r.id)).toMatchObject({ active: true, failure_count: 0, last_error: null });
  });

  test("rules read while a rule changes are not kept: the next event sees the change", async () => {
    const w = await world();
    await label(w, "billing");
    const rules = w.h.deps.services.automationRules;
    const admin = w.h.deps.services.auth.account(w.a.adminToken, String(w.a.accountId));
    const reading = rules.activeFor(w.a.accountId, "message_created");
    expect(reading).toBeInstanceOf(Promise); // on the read pool, answered at a later turn
    // The rule is written in place before that turn: its change comes while the read is under way.
    const created = rules.create(admin, refundRule());
    await reading;
    const r = await created;
    await w.h.deps.commits.settled(); // the tests' harness groups commits: the rule's, then a read
    expect((await rules.activeFor(w.a.accountId, "message_created")).map((k) => k.row.id)).toEqual([r.id]);
  });
});

// conversation_idle (ours): the scheduler's job fires a rule for open conversations with no activity
// for more than the rule's idle_minutes, once per idle period; the rule's own actions do not start
// a new period, anyone else's activity does.
import { describe, expect, test } from "bun:test";
import { actingAsSystem } from "../../src/domain/acting.ts";
import { makeAccount } from "../helpers/factories.ts";
import { newConversation, world, type World } from "../helpers/conversation-fixtures.ts";
import { incoming, labelsOf, messagesOf, rule, ruleState, settle } from "../helpers/automation-fixtures.ts";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

const MINUTE = 60_000;
const idle = (minutes: number, more: unknown[] = []) => [
  {
    attribute_key: "idle_minutes",
    filter_operator: "is_greater_than",
    values: [minutes],
    query_operator: more.length ? "and" : null,
  },
  ...more,
];
const nudgeRule = (w: World, more: unknown[] = [], extra: Record<string, unknown> = {}) =>
  rule(w, {
    name: "Nudge",
    event_name: "conversation_idle",
    conditions: idle(30, more),
    actions: [
      { action_name: "add_label", action_params: ["stale"] },
      { action_name: "send_message", action_params: ["Are you still there?"] },
    ],
    ...extra,
  });
const runIdle = (w: World) => w.h.deps.services.automation.runIdle();
const nudges = (w: World, id: number) => messagesOf(w, id).filter((m) => m.content === "Are you still there?").length;

describe("conversation_idle", () => {
  test("fires after more than idle_minutes, once per idle period; new activity starts a new period", async () => {
    const w = await world();
    const r = await nudgeRule(w);
    const c = await newConversation(w);
    await settle(w);
    w.h.clock.advance(30 * MINUTE + 59_000);
    await runIdle(w);
    expect(nudges(w, c.id)).toBe(0);
    const before = w.h.lastEventId();
    w.h.clock.advance(1000); // 31 whole minutes
    expect(await runIdle(w)).toBe(1);
    expect(await labelsOf(w, c.id)).toEqual(["stale"]);
    expect(nudges(w, c.id)).toBe(1);
    const kinds = w.h.events(before).map((e) => [e.kind, e.actor.type, e.actor.id]);
    expect(kinds).toEqual([
      ["conversation_updated", "automation", r.id],
      ["message_created", "automation", r.id],
      ["message_created", "automation", r.id],
    ]);
    // Its own message moved the activity; that is not a new idle period.
    for (const minutes of [1, 31, 120]) {
      w.h.clock.advance(minutes * MINUTE);
      await runIdle(w);
    }
    expect(nudges(w, c.id)).toBe(1);
    await incoming(w, c.id, "sorry, back now");
    await settle(w);
    w.h.clock.advance(30 * MINUTE);
    await runIdle(w);
    expect(nudges(w, c.id)).toBe(1);
    w.h.clock.advance(MINUTE);
    await runIdle(w);
    expect(nudges(w, c.id)).toBe(2);
    expect((await ruleState(w, r.id)).failure_count).toBe(0);
  });

  test("only open conversations; the rule's other conditions are checked when the period starts", async () => {
    const w = await world();
    await nudgeRule(w, [{ attribute_key: "labels", filter_operator: "does_not_contain", values: ["vip"] }]);
    const open = await newConversation(w);
    const resolved = await newConversation(w, { status: "resolved" });
    const vip = await newConversation(w);
    await w.h.request("POST", `${w.base}/conversations/${vip.id}/labels`, {
      token: w.a.adminToken,
      body: { labels: ["vip"] },
    });
    await settle(w);
    w.h.clock.advance(45 * MINUTE);
    expect(await runIdle(w)).toBe(2);
    expect([nudges(w, open.id), nudges(w, resolved.id), nudges(w, vip.id)]).toEqual([1, 0, 0]);
    // Taking the label off writes an activity message: activity, so a new idle period begins.
    await w.h.request("POST", `${w.base}/conversations/${vip.id}/labels`, {
      token: w.a.adminToken,
      body: { labels: [] },
    });
    w.h.clock.advance(45 * MINUTE);
    await runIdle(w);
    expect(nudges(w, vip.id)).toBe(1);
  });

  test("conditions that come true later in the same idle period (no activity) do not fire it", async () => {
    const w = await world();
    await nudgeRule(w, [{ attribute_key: "nudge", filter_operator: "equal_to", values: ["yes"] }]);
    const c = await newConversation(w, { custom_attributes: { nudge: "no" } });
    w.h.clock.advance(45 * MINUTE);
    expect(await runIdle(w)).toBe(1);
    await w.h.request("PATCH", `${w.base}/conversations/${c.id}`, {
      token: w.a.adminToken,
      body: { custom_attributes: { nudge: "yes" } },
    });
    w.h.clock.advance(45 * MINUTE);
    expect(await runIdle(w)).toBe(0);
    expect(nudges(w, c.id)).toBe(0);
    await incoming(w, c.id, "hi");
    w.h.clock.advance(31 * MINUTE);
    expect(await runIdle(w)).toBe(1);
    expect(nudges(w, c.id)).toBe(1);
  });

  test("a conversation that hears from someone while the pass is under way is left for its new period", async () => {
    const w = await world();
    await nudgeRule(w);
    const first = await newConversation(w);
    const second = await newConversation(w);
    await settle(w);
    w.h.clock.advance(40 * MINUTE);
    const pass = runIdle(w); // handles the first conversation, then yields
    const row = w.h.deps.repos.conversations.byDisplayId(w.a.accountId, second.id)!;
    await w.h.deps.services.messages.create(actingAsSystem({ id: w.a.accountId, name: "Acme" }), row, {
      content: "still here",
      message_type: "incoming",
    });
    expect(await pass).toBe(1);
    expect([nudges(w, first.id), nudges(w, second.id)]).toEqual([1, 0]);
    w.h.clock.advance(31 * MINUTE);
    expect(await runIdle(w)).toBe(1);
    expect(nudges(w, second.id)).toBe(1);
  });

  test("inactive rules and other accounts' rules leave the conversation alone", async () => {
    const w = await world();
    await nudgeRule(w, [], { active: false });
    const other = await makeAccount(w.h, "Other");
    await w.h.request("POST", `/api/v1/accounts/${other.accountId}/labels`, {
      token: other.adminToken,
      body: { title: "stale" },
    });
    const theirs = await w.h.request("POST", `/api/v1/accounts/${other.accountId}/automation_rules`, {
      token: other.adminToken,
      body: {
        name: "x",
        event_name: "conversation_idle",
        conditions: idle(5),
        actions: [{ action_name: "add_label", action_params: ["stale"] }],
      },
    });
    expect(theirs.status).toBe(200);
    const c = await newConversation(w);
    w.h.clock.advance(120 * MINUTE);
    expect(await runIdle(w)).toBe(0);
    expect(await labelsOf(w, c.id)).toEqual([]);
  });

  test("the scheduler runs it every minute", async () => {
    const w = await world();
    await nudgeRule(w);
    const c = await newConversation(w);
    const job = w.h.deps.jobs.find((j) => j.name === "automation-idle")!;
    expect(job.pattern).toBe("0 * * * * *");
    w.h.clock.advance(31 * MINUTE);
    await job.run();
    expect(nudges(w, c.id)).toBe(1);
  });
});

describe.skipIf(TEST_ENGINE !== "postgres")("PostgreSQL: the idle pass runs nothing in place", () => {
  test("the rules, the candidates, the actions and the period's mark", async () => {
    const w = await world();
    await nudgeRule(w);
    const c = await newConversation(w);
    await settle(w);
    w.h.clock.advance(31 * MINUTE);
    let looked = 0;
    const blocking = await blockingDuring(async () => {
      looked = await runIdle(w);
    });
    expect(blocking).toEqual([]);
    expect(looked).toBe(1);
    expect(nudges(w, c.id)).toBe(1);
    expect(await runIdle(w)).toBe(0); // the mark was written: the same period does not fire again
  });
});

// Automation actions that send something (messages, private notes, emails, webhooks, attachments) through the
// engine: an incoming message "go" fires a rule with the action; each test checks what was written or delivered.
import { afterEach, describe, expect, test } from "bun:test";
import { makeTeam } from "../helpers/directory-fixtures.ts";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";
import {
  act,
  conversation,
  incoming,
  kinds,
  messagesOf,
  ruleState,
  settle,
  storeRule,
} from "../helpers/automation-fixtures.ts";
import { startReceiver, type Receiver } from "../helpers/webhooks.ts";

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
    const vip = makeTeam(w.h, w.a.accountId, "vip");
    const x = await act(w, [
      // A team named twice is named once, in the order given.
      {
        action_name: "send_email_to_team",
        action_params: [{ team_ids: [team, String(team), vip], message: "A refund request came in" }],
      },
      { action_name: "send_email_transcript", action_params: ["boss@example.com, {{contact.email}}"] },
    ]);
    expect(
      messagesOf(w, x.id)
        .slice(-2)
        .map((m) => [m.content, m.private]),
    ).toEqual([
      [
        'Automation rule "Act" would have emailed team billing, vip (not sent: Parley has no mailer): A refund request came in',
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

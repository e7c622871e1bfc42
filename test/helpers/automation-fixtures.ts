// Automation tests drive the real API: create labels and rules over HTTP, cause events over HTTP,
// then let the bus deliver them to the engine (settle) and look at what the rules did.
import { expect } from "bun:test";
import { readNow } from "../../src/db/reads.ts";
import type { StoredEvent } from "../../src/shared/event-types.ts";
import { newConversation, send, type World } from "./conversation-fixtures.ts";

export { refundRule } from "./rule-input-fixtures.ts";

export async function label(w: World, title: string): Promise<void> {
  const r = await w.h.request("POST", `${w.base}/labels`, { token: w.a.adminToken, body: { title } });
  expect(r.status).toBe(200);
}

/** Creates a rule through the API (labels it adds are created first); returns the record. */
export async function rule(w: World, body: Record<string, unknown>): Promise<any> {
  for (const action of (body.actions as { action_name: string; action_params?: unknown[] }[] | undefined) ?? []) {
    if (action.action_name !== "add_label") continue;
    for (const title of action.action_params as string[]) {
      const known = await w.h.request("GET", `${w.base}/labels`, { token: w.a.adminToken });
      if (!known.body.payload.some((l: { title: string }) => l.title === title.toLowerCase())) await label(w, title);
    }
  }
  const r = await w.h.request("POST", `${w.base}/automation_rules`, { token: w.a.adminToken, body });
  if (r.status !== 200) throw new Error(`rule create failed: ${r.status} ${r.text}`);
  return r.body;
}

/** A rule on `event` with these conditions that adds the label `hit` when it matches. */
export const hitRule = (w: World, event: string, conditions: unknown[]) =>
  rule(w, {
    name: "probe",
    event_name: event,
    conditions,
    actions: [{ action_name: "add_label", action_params: ["hit"] }],
  });

/** Writes a rule straight into the table, past the API's validation (old rows, hand-edited databases). */
export function storeRule(w: World, name: string, conditions: unknown[], actions: unknown[]): number {
  return readNow(
    w.h.deps.repos.automationRules.insertSteps(
      w.a.accountId,
      {
        name,
        description: null,
        event_name: "message_created",
        conditions: JSON.stringify(conditions),
        actions: JSON.stringify(actions),
        active: 1,
        failure_count: 0,
        last_error: null,
        disabled_reason: null,
      },
      Math.floor(w.h.clock.nowMs() / 1000),
    ),
  );
}

export async function ruleState(w: World, id: number): Promise<any> {
  return (await w.h.request("GET", `${w.base}/automation_rules/${id}`, { token: w.a.adminToken })).body.payload;
}

/** Runs the bus until the engine has seen every event, including those its own actions recorded. */
export async function settle(w: World): Promise<void> {
  await w.h.deps.bus.drain();
  await w.h.deps.bus.drain();
}

export async function incoming(w: World, displayId: number, content: string): Promise<void> {
  const r = await send(w, displayId, { content, message_type: "incoming" });
  expect(r.status).toBe(200);
}

export async function labelsOf(w: World, displayId: number): Promise<string[]> {
  return (await w.h.request("GET", `${w.base}/conversations/${displayId}/labels`, { token: w.a.adminToken })).body
    .payload;
}

export async function conversation(w: World, displayId: number): Promise<any> {
  return (await w.h.request("GET", `${w.base}/conversations/${displayId}`, { token: w.a.adminToken })).body;
}

/** Events recorded by automation after `after`: [kind, rule id]. */
export function automationEvents(w: World, after: number): [string, number | null][] {
  return w.h
    .events(after)
    .filter((e: StoredEvent) => e.actor.type === "automation")
    .map((e) => [e.kind, e.actor.id]);
}

/** Messages of a conversation as the database holds them (content, type, private, attributes). */
export function messagesOf(
  w: World,
  displayId: number,
): { content: string; message_type: number; private: number; sender_type: string | null; content_attributes: any }[] {
  const rows = w.h.deps.db
    .query(
      "SELECT m.content, m.message_type, m.private, m.sender_type, m.content_attributes FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.account_id = ? AND c.display_id = ? ORDER BY m.id",
    )
    .all(w.a.accountId, displayId) as {
    content: string;
    message_type: number;
    private: number;
    sender_type: string | null;
    content_attributes: string;
  }[];
  return rows.map((r) => ({ ...r, content_attributes: JSON.parse(r.content_attributes) }));
}

/** A fresh conversation and the event id just after its creation (its own events already settled). */
export async function freshConversation(
  w: World,
  body: Record<string, unknown> = {},
): Promise<{ id: number; after: number }> {
  const c = await newConversation(w, body);
  await settle(w);
  return { id: c.id, after: w.h.lastEventId() };
}

/** Creates a rule with these actions on message_created, sends "go", lets the engine run. */
export async function act(w: World, actions: unknown[], body: Record<string, unknown> = {}) {
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

/** Kinds of the events automation recorded after `after`, all of which must come from rule `ruleId`. */
export const kinds = (w: World, after: number, ruleId: number) => {
  const events = automationEvents(w, after);
  expect(events.every(([, id]) => id === ruleId)).toBe(true);
  return events.map(([kind]) => kind);
};

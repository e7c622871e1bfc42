// The website chat's writes beside its messages, as awaited bodies (writeTx.steps): the pre-chat
// start, typing, the chat opened (webwidget.triggered), the conversation's attributes and labels,
// the read mark and the visitor's resolve. On both engines: what they answer and record. On
// PostgreSQL: none of them sends anything through the synchronous bridge in place.
import { describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";
import { Visitor, type WidgetWorld, widgetWorld } from "../helpers/widget-fixtures.ts";

async function visitorWithLabel(): Promise<{ w: WidgetWorld; visitor: Visitor }> {
  const w = await widgetWorld({}, {}, { deps: { wakeListeners: false } });
  const label = await w.h.request("POST", `${w.api}/labels`, { token: w.a.adminToken, body: { title: "vip" } });
  expect(label.status).toBe(200);
  const visitor = new Visitor(w);
  await visitor.start();
  return { w, visitor };
}

/** The visitor's whole session, each answer reduced to what the chat reads of it. */
async function session(visitor: Visitor): Promise<unknown[]> {
  const answers: unknown[] = [];
  const opened = await visitor.call("POST", "/events", { name: "webwidget.triggered", event_info: { lang: "en" } });
  answers.push(opened.status);
  const started = await visitor.call("POST", "/conversations", {
    contact: { name: "Pat Visitor", email: "pat@example.com" },
    message: { content: "Do you ship to Norway?" },
    custom_attributes: { plan: "free" },
  });
  answers.push([started.status, started.body.messages.map((m: { content: string }) => m.content)]);
  answers.push((await visitor.call("POST", "/conversations/toggle_typing", { typing_status: "on" })).status);
  const attrs = await visitor.call("POST", "/conversations/set_custom_attributes", {
    custom_attributes: { cart: 3 },
  });
  answers.push([attrs.status, attrs.body.status]);
  const removed = await visitor.call("POST", "/conversations/destroy_custom_attributes", {
    custom_attributes: ["plan"],
  });
  answers.push([removed.status, removed.body.status]);
  answers.push((await visitor.call("POST", "/labels", { label: "vip" })).body.labels);
  answers.push((await visitor.call("POST", "/labels", { label: "nope" })).status);
  answers.push((await visitor.call("DELETE", "/labels/vip")).body.labels);
  answers.push((await visitor.call("POST", "/conversations/update_last_seen")).status);
  const resolved = await visitor.call("GET", "/conversations/toggle_status");
  answers.push([resolved.status, resolved.body.status]);
  return answers;
}

const EXPECTED = [
  200,
  [200, ["Do you ship to Norway?"]],
  200,
  [200, "open"],
  [200, "open"],
  ["vip"],
  422,
  [],
  200,
  [200, "resolved"],
];

describe("the website chat's conversation writes, awaited", () => {
  test("a session: opened, pre-chat start, typing, attributes, labels, read, resolved", async () => {
    const { w, visitor } = await visitorWithLabel();
    expect(await session(visitor)).toEqual(EXPECTED);
    const kinds = w.h.events().map((e) => e.kind);
    expect(kinds.filter((k) => k === "webwidget_triggered" || k === "conversation_typing_on")).toEqual([
      "webwidget_triggered",
      "conversation_typing_on",
    ]);
    const contact = w.h.deps.db.prepare("SELECT name, email FROM contacts WHERE email = 'pat@example.com'").all();
    expect(contact).toEqual([{ name: "Pat Visitor", email: "pat@example.com" }]);
    const row = w.h.deps.db.prepare("SELECT custom_attributes FROM conversations").get() as {
      custom_attributes: string;
    };
    expect(JSON.parse(row.custom_attributes)).toEqual({ cart: 3 });
  });

  test("a pre-chat start whose email another contact has: 422, and nothing of it is written", async () => {
    const { w, visitor } = await visitorWithLabel();
    const other = await w.h.request("POST", `${w.api}/contacts`, {
      token: w.a.adminToken,
      body: { name: "Taken", email: "taken@example.com" },
    });
    expect(other.status).toBe(200);
    const before = w.h.events().length;
    const r = await visitor.call("POST", "/conversations", {
      contact: { email: "taken@example.com" },
      message: { content: "Hello" },
    });
    expect(r.status).toBe(422);
    expect(w.h.events()).toHaveLength(before);
    expect(w.h.deps.db.prepare("SELECT COUNT(*) AS n FROM conversations").get()).toEqual({ n: 0 });
  });
});

describe.skipIf(TEST_ENGINE !== "postgres")("PostgreSQL: the website chat's writes wait on nothing in place", () => {
  test("the same session", async () => {
    const { visitor } = await visitorWithLabel();
    let answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      answers = await session(visitor);
    });
    expect(blocking).toEqual([]);
    expect(answers).toEqual(EXPECTED);
  });
});

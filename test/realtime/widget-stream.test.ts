// What the website visitor's stream (/cable with the pubsub_token from /api/v1/widget/config)
// carries: agents' replies, their typing and the status change, and never a private note, an
// agent's email or another visitor's conversation; the visitor's own typing reaches the agents.
import { afterEach, expect, test } from "bun:test";
import { CableClient, listen, type Served } from "../helpers/cable.ts";
import { Visitor, widgetWorld } from "../helpers/widget-fixtures.ts";

let served: Served | null = null;
afterEach(async () => {
  await served?.stop();
  served = null;
});

test("the visitor's stream: replies, typing and resolve; no private notes, no agent emails, no other visitor", async () => {
  const w = await widgetWorld();
  served = listen(w.h);
  const vera = new Visitor(w);
  const other = new Visitor(w);
  const config = await vera.start();
  await other.start();
  const first = await vera.call("POST", "/messages", { message: { content: "hello" } });
  const id = first.body.conversation_id;
  await other.call("POST", "/messages", { message: { content: "other visitor's secret" } });

  const visitor = await CableClient.connect(served.url());
  const { reply } = await visitor.subscribe({ pubsub_token: config.contact.pubsub_token, account_id: w.a.accountId });
  expect(reply.type).toBe("confirm_subscription");
  const agent = await CableClient.connect(served.url(), { headers: { api_access_token: w.agent.token } });
  await agent.subscribe({ account_id: w.a.accountId });

  const api = (method: string, path: string, body?: unknown) =>
    w.h.request(method, `${w.api}/conversations/${id}${path}`, { token: w.agent.token, body });
  await api("POST", "/toggle_typing_status", { typing_status: "on" });
  await api("POST", "/messages", { content: "internal note", private: true });
  await api("POST", "/messages", { content: "Hi Vera" });
  await api("POST", "/assignments", { assignee_id: w.agent.userId });
  await api("POST", "/toggle_status", { status: "resolved" });
  await visitor.until((f) => f.message?.event === "conversation.status_changed");

  const names = visitor.messages().map((m) => m.event);
  expect(names).toContain("conversation.typing_on");
  expect(visitor.messages("message.created").map((m) => m.data.content)).toEqual(["Hi Vera"]);
  const text = JSON.stringify(visitor.frames);
  expect(text).not.toContain(w.agent.email);
  expect(text).not.toContain("internal note");
  expect(text).not.toContain("other visitor's secret");

  // The visitor's typing reaches the agents, not the visitor's own stream.
  await vera.call("POST", "/conversations/toggle_typing", { typing_status: "on" });
  const typing = await agent.until(
    (f) => f.message?.event === "conversation.typing_on" && f.message.data.user?.type === "contact",
  );
  expect(typing.message.data.conversation.id).toBe(id);
  expect(visitor.messages("conversation.typing_on").filter((m) => m.data.user?.type === "contact")).toEqual([]);
  visitor.ws.close();
  agent.ws.close();
});

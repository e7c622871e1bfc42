// Account-API message create as an awaited body (writeTx.steps, src/db/awaited-writes.ts). On both
// engines: messages sent together to one conversation make one first reply, one first_response
// and one message_created delivery each, since the body reads the conversation again in its own
// transaction. On PostgreSQL: the request sends nothing through the synchronous bridge in place, on
// the account API and on the public API.
import { describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { newConversation, send, type World, world } from "../helpers/conversation-fixtures.ts";
import { newContact, openConversation, publicWorld, say } from "../helpers/public-fixtures.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";
import { createWebhook, deliveryRows } from "../helpers/webhooks.ts";

/** The reporting events of a conversation, by name, oldest first. */
const reportingEvents = (w: World, conversationId: number) =>
  w.h.deps.repos.reportingEvents.ofConversation(conversationId).map((e) => e.name);

describe("message create, awaited", () => {
  test("replies sent together make one first reply, one first_response and a delivery each", async () => {
    const w = await world();
    await createWebhook(w.h, w.a.accountId, w.a.adminToken, {
      url: "https://hooks.example.com/parley",
      subscriptions: ["message_created", "conversation_status_changed"],
    });
    const c = await newConversation(w);
    const incoming = await send(w, c.id, { content: "Anyone there?", message_type: "incoming" });
    expect(incoming.status).toBe(200);
    const replies = await Promise.all(["One", "Two", "Three", "Four"].map((content) => send(w, c.id, { content })));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(replies.map((r) => (r.body as { id: number }).id)).size).toBe(4);
    const row = w.h.deps.repos.conversations.byId(c.id)!;
    // The first of the four (in commit order) is the first reply; the others see it set.
    const first = Math.min(...replies.map((r) => (r.body as { id: number }).id));
    expect(row.first_reply_created_at).toBe(
      (w.h.deps.db.prepare("SELECT created_at FROM messages WHERE id = ?").get(first) as { created_at: number })
        .created_at,
    );
    expect(row.waiting_since).toBeNull();
    expect(reportingEvents(w, c.id)).toEqual(["first_response"]);
    expect(deliveryRows(w.h, "event_kind = 'message_created'")).toHaveLength(5);
  });
});

describe.skipIf(TEST_ENGINE !== "postgres")("PostgreSQL: message create waits on nothing in place", () => {
  test("a reply, a retry with its key, a reopening incoming message and a private note", async () => {
    // No listeners after commits, and no webhook (its deliverer would wake): their own statements
    // are not the request's. The first test covers the deliveries a body writes.
    const w = await world({ deps: { wakeListeners: false } });
    const c = await newConversation(w);
    const resolved = await w.h.request("POST", `${w.base}/conversations/${c.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "resolved" },
    });
    expect(resolved.status).toBe(200);
    const key = { "Idempotency-Key": "reply-1" };
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const reply = await send(w, c.id, { content: "We are on it" }, w.a.adminToken, key);
      const retry = await send(w, c.id, { content: "We are on it" }, w.a.adminToken, key);
      const back = await send(w, c.id, { content: "Thanks!", message_type: "incoming" });
      const note = await send(w, c.id, { content: "VIP", private: true }, w.agent.token);
      for (const r of [reply, retry, back, note]) {
        const m = r.body as { id: number; content: string; message_type: number; private: boolean };
        answers.push([r.status, m.content, m.message_type, m.private, m.id === (reply.body as { id: number }).id]);
      }
    });
    expect(blocking).toEqual([]);
    expect(answers).toEqual([
      [200, "We are on it", 1, false, true],
      [200, "We are on it", 1, false, true],
      [200, "Thanks!", 0, false, false],
      [200, "VIP", 1, true, false],
    ]);
    const row = w.h.deps.repos.conversations.byId(c.id)!;
    expect(row.status).toBe("open"); // reopened by the incoming message
    expect(reportingEvents(w, c.id)).toEqual(["conversation_resolved", "first_response", "conversation_opened"]);
    const contents = w.h.deps.db
      .prepare("SELECT content FROM messages WHERE conversation_id = ? ORDER BY id")
      .all(c.id) as { content: string }[];
    expect(contents.map((m) => m.content).slice(-4)).toEqual([
      "We are on it",
      "Thanks!",
      "System reopened the conversation due to a new incoming message.",
      "VIP",
    ]);
  });

  test("the public API: a contact's message, its answer with the contact as sender", async () => {
    const w = await publicWorld({}, { deps: { wakeListeners: false } });
    const pat = await newContact(w, { name: "Pat" });
    const conversation = await openConversation(w, pat);
    let answer: { content: string; message_type: number; sender: { name: string } } | null = null;
    const blocking = await blockingDuring(async () => {
      answer = await say(w, pat, conversation.id, "Hello from the website");
    });
    expect(blocking).toEqual([]);
    expect(answer!).toMatchObject({ content: "Hello from the website", message_type: 0, sender: { name: "Pat" } });
  });
});

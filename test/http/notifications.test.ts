// Agents' notifications (Chatwoot's API): who is notified of a new conversation, an assignment, a
// message in their conversation and a mention; the list, unread count, read / unread / read_all /
// delete on one's own only; settings; and notification.created on the user's socket.
import { afterEach, describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { CableClient, listen, type Served } from "../helpers/cable.ts";
import { newConversation, send, world, type World } from "../helpers/conversation-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";
import { mentionOf } from "../../src/shared/mentions.ts";

let served: Served | null = null;
afterEach(async () => {
  await served?.stop();
  served = null;
});

const list = (w: World, token: string) => w.h.request("GET", `${w.base}/notifications`, { token });
/** [type, title] of a user's notifications, newest first, once the listener has caught up. */
async function seen(w: World, token: string): Promise<[string, string][]> {
  await w.h.deps.bus.drain();
  return (await list(w, token)).body.data.payload.map(
    (n: { notification_type: string; push_message_title: string }) => [n.notification_type, n.push_message_title],
  );
}

describe("who is notified", () => {
  test("a new conversation: the inbox's members but its creator; an assignment: the assignee unless self-assigned", async () => {
    const w = await world();
    const c = await newConversation(w);
    expect(await seen(w, w.agent.token)).toEqual([["conversation_creation", `New conversation #${c.id} in API`]]);
    expect(await seen(w, w.a.adminToken)).toEqual([]); // the creator, and not a member of the inbox
    expect(await seen(w, w.outsider.token)).toEqual([]);

    await w.h.request("POST", `${w.base}/conversations/${c.id}/assignments`, {
      token: w.a.adminToken,
      body: { assignee_id: w.agent.userId },
    });
    expect((await seen(w, w.agent.token))[0]).toEqual([
      "conversation_assignment",
      `Conversation #${c.id} was assigned to you`,
    ]);
    const other = await newConversation(w);
    await w.h.request("POST", `${w.base}/conversations/${other.id}/assignments`, {
      token: w.agent.token,
      body: { assignee_id: w.agent.userId },
    });
    expect((await seen(w, w.agent.token)).filter(([type]) => type === "conversation_assignment")).toHaveLength(1);
  });

  test("messages: the assignee hears of others' messages and notes, a mention names whom it may; the writer never", async () => {
    const w = await world();
    const c = await newConversation(w, { assignee_id: w.agent.userId });
    await w.h.deps.bus.drain();
    const before = (await list(w, w.agent.token)).body.data.meta.count;
    await send(w, c.id, { content: "Where is my parcel?", message_type: "incoming" });
    await send(w, c.id, { content: "I am on it", message_type: "outgoing" }, w.agent.token); // their own: nothing
    const agentSeen = await seen(w, w.agent.token);
    expect(agentSeen[0]).toEqual([
      "assigned_conversation_new_message",
      `New message in conversation #${c.id}: Where is my parcel?`,
    ]);
    expect(agentSeen).toHaveLength(before + 1);

    // A note mentioning the assignee is a mention (not also a new message); the outsider may not see the inbox.
    await send(w, c.id, {
      content: `${mentionOf(w.agent.userId, "Ann Agent")} and ${mentionOf(w.outsider.userId, "Otto Outsider")} please check`,
      private: true,
    });
    expect((await seen(w, w.agent.token))[0]).toEqual([
      "conversation_mention",
      `[#${c.id}] @Ann Agent and @Otto Outsider please check`,
    ]);
    expect(
      (await seen(w, w.agent.token)).filter(([type]) => type === "assigned_conversation_new_message"),
    ).toHaveLength(1);
    expect(await seen(w, w.outsider.token)).toEqual([]);
  });
});

describe("the notifications API", () => {
  test("Chatwoot's list shape; read, unread, read_all, delete; another user's notification is 404", async () => {
    const w = await world();
    const c = await newConversation(w);
    await w.h.deps.bus.drain();
    const r = await list(w, w.agent.token);
    expect(r.status).toBe(200);
    const n = r.body.data.payload[0];
    expect(r.body.data.meta).toEqual({ unread_count: 1, count: 1, current_page: 1 });
    expect(n).toMatchObject({
      notification_type: "conversation_creation",
      primary_actor_type: "Conversation",
      primary_actor: { id: c.id, inbox_id: w.inboxId, meta: { sender: { name: "Carla Customer" } } },
      read_at: null,
      secondary_actor: null,
      user: { id: w.agent.userId, name: "Ann Agent" },
      account_id: w.a.accountId,
    });
    const url = `${w.base}/notifications/${n.id}`;
    expect((await w.h.request("PATCH", url, { token: w.outsider.token })).status).toBe(404);
    expect((await w.h.request("DELETE", url, { token: w.a.adminToken })).status).toBe(404);

    const read = await w.h.request("PATCH", url, { token: w.agent.token });
    expect([read.status, typeof read.body.read_at]).toEqual([200, "number"]);
    expect((await w.h.request("GET", `${w.base}/notifications/unread_count`, { token: w.agent.token })).body).toBe(0);
    expect((await w.h.request("POST", `${url}/unread`, { token: w.agent.token })).body.read_at).toBeNull();
    expect(
      (await w.h.request("POST", `${w.base}/notifications/read_all`, { token: w.agent.token, body: {} })).status,
    ).toBe(200);
    expect((await list(w, w.agent.token)).body.data.meta.unread_count).toBe(0);
    expect((await w.h.request("DELETE", url, { token: w.agent.token })).status).toBe(200);
    expect((await list(w, w.agent.token)).body.data.meta.count).toBe(0);

    const stranger = await makeAccount(w.h, "Other");
    expect((await w.h.request("GET", `${w.base}/notifications`, { token: stranger.adminToken })).status).toBe(401);
    const bad = await w.h.request("POST", `${w.base}/notifications/read_all`, {
      token: w.agent.token,
      body: { primary_actor_type: "Contact", primary_actor_id: 1 },
    });
    expect([bad.status, bad.body.errors[0].field]).toEqual([422, "primary_actor_type"]);
  });

  test("sort_order: newest activity first by default, oldest first with asc (the mobile app's inbox sort)", async () => {
    const w = await world();
    const first = await newConversation(w);
    w.h.clock.advance(60_000);
    const second = await newConversation(w);
    await w.h.deps.bus.drain();
    const order = async (qs: string) =>
      (await w.h.request("GET", `${w.base}/notifications${qs}`, { token: w.agent.token })).body.data.payload.map(
        (n: { primary_actor: { id: number } }) => n.primary_actor.id,
      );
    expect(await order("")).toEqual([second.id, first.id]);
    expect(await order("?sort_order=desc")).toEqual([second.id, first.id]);
    // Exactly what the app asks: includes[] for snoozed and read (Parley lists read ones anyway).
    expect(await order("?sort_order=asc&includes[]=snoozed&includes[]=read&page=1")).toEqual([first.id, second.id]);
    const bad = await w.h.request("GET", `${w.base}/notifications?sort_order=sideways`, { token: w.agent.token });
    expect([bad.status, bad.body.errors[0].field]).toEqual([422, "sort_order"]);
  });

  test("settings: every flag on by default, chosen flags kept, unknown ones refused", async () => {
    const w = await world();
    const url = `${w.base}/notification_settings`;
    const initial = (await w.h.request("GET", url, { token: w.agent.token })).body;
    expect(initial.selected_push_flags).toEqual([
      "push_conversation_creation",
      "push_conversation_assignment",
      "push_conversation_mention",
      "push_assigned_conversation_new_message",
    ]);
    const saved = await w.h.request("PATCH", url, {
      token: w.agent.token,
      body: { notification_settings: { selected_push_flags: ["push_conversation_mention"] } },
    });
    expect([saved.body.selected_push_flags, saved.body.selected_email_flags.length]).toEqual([
      ["push_conversation_mention"],
      4,
    ]);
    const bad = await w.h.request("PATCH", url, {
      token: w.agent.token,
      body: { selected_push_flags: ["push_everything"] },
    });
    expect(bad.status).toBe(422);
    expect((await w.h.request("GET", url, { token: w.agent.token })).body.selected_push_flags).toEqual([
      "push_conversation_mention",
    ]);
  });
});

describe("notification.created", () => {
  test("reaches the notified user's socket only, with the unread count", async () => {
    const w = await world();
    served = listen(w.h);
    const pubsub = async (token: string) => (await w.h.request("GET", "/api/v1/profile", { token })).body.pubsub_token;
    const agent = await CableClient.connect(served.url());
    await agent.subscribe({
      pubsub_token: await pubsub(w.agent.token),
      account_id: w.a.accountId,
      user_id: w.agent.userId,
    });
    const outsider = await CableClient.connect(served.url());
    await outsider.subscribe({
      pubsub_token: await pubsub(w.outsider.token),
      account_id: w.a.accountId,
      user_id: w.outsider.userId,
    });
    const c = await newConversation(w);
    const frame = await agent.until((f) => f.message?.event === "notification.created");
    expect(frame.message.data).toMatchObject({
      unread_count: 1,
      count: 1,
      notification: { notification_type: "conversation_creation", primary_actor: { id: c.id } },
    });
    await w.h.deps.bus.drain();
    expect(outsider.messages("notification.created")).toEqual([]);
  });
});

describe.skipIf(TEST_ENGINE !== "postgres")("PostgreSQL: notifications are made without the bridge", () => {
  test("a customer's message in an assigned conversation: the assignee's notification, written awaited", async () => {
    const w = await world({ deps: { wakeListeners: false } });
    const c = await newConversation(w, { assignee_id: w.agent.userId });
    await send(w, c.id, { content: "Hello?", message_type: "incoming" });
    await w.h.deps.bus.drain(); // the automation listener has cached the account's (no) rules for these events
    await send(w, c.id, { content: "Where is my parcel?", message_type: "incoming" });
    const blocking = await blockingDuring(() => w.h.deps.bus.drain());
    expect(blocking).toEqual([]);
    expect((await seen(w, w.agent.token))[0]).toEqual([
      "assigned_conversation_new_message",
      `New message in conversation #${c.id}: Where is my parcel?`,
    ]);
  });
});

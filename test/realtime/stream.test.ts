// The live stream over real sockets: an administrator, an agent of inbox A only and two contacts
// connected at once; every event arrives once, in seq order, only where it may be seen.
import { afterEach, describe, expect, test } from "bun:test";
import { CableClient } from "../helpers/cable.ts";
import { send } from "../helpers/conversation-fixtures.ts";
import { quiet, room, type Room } from "../helpers/realtime-fixtures.ts";

const NOW = 1767603600;
let r: Room | null = null;
afterEach(async () => {
  await r?.served.stop();
  r = null;
});

async function connectAll(room: Room) {
  const admin = await CableClient.connect(room.served.url(`/cable?api_access_token=${room.a.adminToken}`));
  expect((await admin.subscribe({ account_id: room.a.accountId })).reply.type).toBe("confirm_subscription");
  // The agent as Chatwoot's dashboard does it: no connection credentials, the user's pubsub_token.
  const agent = await CableClient.connect(room.served.url());
  expect((await agent.subscribe({ pubsub_token: room.agentPubsub, account_id: room.a.accountId })).reply.type).toBe(
    "confirm_subscription",
  );
  // Contacts as the widget does it: the contact_inbox's pubsub_token.
  const carla = await CableClient.connect(room.served.url());
  expect((await carla.subscribe({ pubsub_token: room.carlaToken })).reply.type).toBe("confirm_subscription");
  const dan = await CableClient.connect(room.served.url());
  expect((await dan.subscribe({ pubsub_token: room.danToken })).reply.type).toBe("confirm_subscription");
  return { admin, agent, carla, dan };
}

/** What happened in the room, in order: (seq offset, event, message content). */
async function act(room: Room) {
  await send(room, room.carlaA, { content: "hi carla" }); // +1 message, +2 conversation.updated (first reply)
  await send(room, room.carlaA, { content: "secret", private: true }); // +3 private note
  await send(room, room.carlaB, { content: "b msg" }); // +4, +5: inbox B
  await send(room, room.danA, { content: "hi dan" }); // +6, +7: Dan's conversation
  // +8 status_changed, (+9 conversation_resolved: internal, not streamed), +10 updated, +11 activity message
  expect(
    (
      await room.h.request("POST", `${room.base}/conversations/${room.carlaA}/toggle_status`, {
        token: room.a.adminToken,
        body: { status: "resolved" },
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await room.h.request("PATCH", `${room.base}/contacts/${room.danId}`, {
        token: room.a.adminToken,
        body: { name: "Daniel" },
      })
    ).status,
  ).toBe(200); // +12
}

const summary = (c: CableClient, start: number) =>
  c.events().map((e) => [e.seq - start, e.event, e.data.content ?? null]);

describe("/cable live stream", () => {
  test("each party gets exactly the events it may see, once, in seq order", async () => {
    r = await room();
    const { admin, agent, carla, dan } = await connectAll(r);
    const start = r.h.lastEventId();
    await act(r);
    await admin.eventCount(11);
    await quiet(r, admin, agent, carla, dan);
    const everything = [
      [1, "message.created", "hi carla"],
      [2, "conversation.updated", null],
      [3, "message.created", "secret"],
      [4, "message.created", "b msg"],
      [5, "conversation.updated", null],
      [6, "message.created", "hi dan"],
      [7, "conversation.updated", null],
      [8, "conversation.status_changed", null],
      [10, "conversation.updated", null],
      [11, "message.created", "Conversation was marked resolved by Admin"],
      [12, "contact.updated", null],
    ];
    expect(summary(admin, start)).toEqual(everything);
    // Inbox B (+4, +5) is not the agent's; the private note and the account's contact events are.
    expect(summary(agent, start)).toEqual(everything.filter(([n]) => n !== 4 && n !== 5));
    // Carla: her inbox-A conversation's public events only — no note, no activity, not her inbox-B
    // conversation (an unverified identity sees its own contact_inbox's), nothing of Dan's.
    expect(summary(carla, start)).toEqual([
      [1, "message.created", "hi carla"],
      [2, "conversation.updated", null],
      [8, "conversation.status_changed", null],
      [10, "conversation.updated", null],
    ]);
    expect(summary(dan, start)).toEqual([
      [6, "message.created", "hi dan"],
      [7, "conversation.updated", null],
    ]);
  });

  test("two tabs of one user and another user each get the frame under their own identifier", async () => {
    r = await room();
    const { admin, agent } = await connectAll(r);
    const tab = await CableClient.connect(r.served.url(`/cable?api_access_token=${r.a.adminToken}`));
    const adminId = JSON.stringify({ channel: "RoomChannel", account_id: r.a.accountId });
    expect((await tab.subscribe({ account_id: r.a.accountId })).identifier).toBe(adminId);
    await send(r, r.carlaA, { content: "to every tab" });
    const created = (f: { message?: { event?: string } }) => f.message?.event === "message.created";
    const frames = await Promise.all([admin, tab, agent].map((c) => c.until(created)));
    expect(frames.map((f) => f.identifier)).toEqual([
      adminId,
      adminId,
      JSON.stringify({ channel: "RoomChannel", pubsub_token: r.agentPubsub, account_id: r.a.accountId }),
    ]);
    expect(frames.map((f) => f.message.data.content)).toEqual(["to every tab", "to every tab", "to every tab"]);
    expect(new Set(frames.map((f) => f.message.seq)).size).toBe(1);
  });

  test("message events carry the account message record (push data) and the ActionCable envelope", async () => {
    r = await room();
    const { admin, carla } = await connectAll(r);
    const start = r.h.lastEventId();
    r.h.clock.advance(5000);
    const sent = await send(r, r.carlaA, { content: "hello", echo_id: "echo-1" });
    const frame = await admin.until((f) => f.message?.event === "message.created");
    expect(frame.identifier).toBe(JSON.stringify({ channel: "RoomChannel", account_id: r.a.accountId }));
    expect(frame.message).toEqual({
      event: "message.created",
      seq: start + 1,
      data: {
        id: sent.body.id,
        content: "hello",
        account_id: r.a.accountId,
        inbox_id: r.inboxId,
        conversation_id: r.carlaA,
        message_type: 1,
        created_at: NOW + 5,
        updated_at: new Date((NOW + 5) * 1000).toISOString(),
        private: false,
        status: "sent",
        source_id: null,
        content_type: "text",
        content_attributes: {},
        sender_type: "User",
        sender_id: r.a.adminId,
        external_source_ids: {},
        additional_attributes: {},
        processed_message_content: "hello",
        sentiment: {},
        conversation: {
          assignee_id: null,
          unread_count: 0,
          last_activity_at: NOW + 5,
          contact_inbox: { source_id: expect.any(String) },
        },
        echo_id: "echo-1",
        // The sender is connected, so auto_offline shows them online.
        sender: {
          id: r.a.adminId,
          name: "Admin",
          available_name: "Admin",
          avatar_url: "",
          type: "user",
          availability_status: "online",
          thumbnail: "",
        },
      },
    });
    // The contact receives the same record (Chatwoot sends contacts the same push data).
    const own = await carla.until((f) => f.message?.event === "message.created");
    expect(own.message).toEqual(frame.message);
    // Conversation events are the conversation push data, as webhooks carry it.
    const updated = await admin.until((f) => f.message?.event === "conversation.updated");
    expect(updated.message.seq).toBe(start + 2);
    // The webhook-shaped payload, plus the account_id every realtime payload carries.
    expect(updated.message.data).toEqual({ ...r.h.events(start + 1)[0]!.payload, account_id: r.a.accountId });
    expect(updated.message.data.id).toBe(r.carlaA);
  });

  test("an agent removed from the inbox stops receiving its events at once", async () => {
    r = await room();
    const { agent } = await connectAll(r);
    const start = r.h.lastEventId();
    await send(r, r.carlaA, { content: "first" });
    await agent.eventCount(2);
    r.h.deps.db.query("DELETE FROM inbox_members WHERE user_id = ?").run(r.agent.userId);
    await send(r, r.carlaA, { content: "second" });
    await r.h.request("PATCH", `${r.base}/contacts/${r.danId}`, { token: r.a.adminToken, body: { name: "Daniel" } });
    await agent.eventCount(3);
    await quiet(r, agent);
    expect(summary(agent, start)).toEqual([
      [1, "message.created", "first"],
      [2, "conversation.updated", null],
      [4, "contact.updated", null],
    ]);
  });

  test("unsubscribe stops the stream; other subscriptions on the socket go on", async () => {
    r = await room();
    const admin = await CableClient.connect(r.served.url(`/cable?api_access_token=${r.a.adminToken}`));
    const one = await admin.subscribe({ account_id: r.a.accountId });
    const two = await admin.subscribe({ account_id: r.a.accountId, tag: "second" });
    admin.unsubscribe(one.identifier);
    await admin.sync(); // the server took the unsubscribe before this round trip's answer
    await send(r, r.carlaA, { content: "hi" });
    await admin.eventCount(2);
    await quiet(r, admin);
    expect(admin.frames.filter((f) => f.message).map((f) => f.identifier)).toEqual([two.identifier, two.identifier]);
  });
});

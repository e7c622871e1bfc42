// Chatwoot's own realtime client, @rails/actioncable, unchanged: it connects, subscribes to
// RoomChannel with the profile's pubsub_token, and every kind of event it receives passes the
// dashboard's acceptance rule (Chatwoot's dashboard and mobile app keep an event only when
// data.account_id is the account on screen; events once went out without it and were dropped).
import { afterEach, describe, expect, test } from "bun:test";
import { createConsumer, type Consumer } from "@rails/actioncable";
import { send } from "../helpers/conversation-fixtures.ts";
import { room, type Room } from "../helpers/realtime-fixtures.ts";

let r: Room | null = null;
let consumer: Consumer | null = null;
afterEach(async () => {
  consumer?.disconnect();
  consumer = null;
  await r?.served.stop();
  r = null;
});

interface Received {
  event: string;
  data: { account_id?: unknown };
}

/** Resolves once `pred` holds for what has been received. */
function waitFor(got: Received[], pred: (got: Received[]) => boolean, signal: { wake?: () => void }): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (pred(got) ? resolve() : (signal.wake = check));
    check();
  });
}

describe("@rails/actioncable, as Chatwoot's dashboard uses it", () => {
  test("every event kind carries the account_id the dashboard checks", async () => {
    r = await room();
    const got: Received[] = [];
    const signal: { wake?: () => void } = {};
    consumer = createConsumer(r.served.url());
    const connected = Promise.withResolvers<void>();
    consumer.subscriptions.create(
      { channel: "RoomChannel", pubsub_token: r.agentPubsub, account_id: r.a.accountId, user_id: r.agent.userId },
      {
        connected: () => connected.resolve(),
        received: (message: Received) => {
          got.push(message);
          signal.wake?.();
        },
      },
    );
    await connected.promise;

    const w = r;
    const base = w.base;
    const admin = w.a.adminToken;
    const c = (
      await w.h.request("POST", `${base}/conversations`, {
        token: admin,
        body: { inbox_id: w.inboxId, contact_id: w.contactId },
      })
    ).body;
    const m = (await send(w, c.id, { content: "hello", message_type: "incoming" })).body;
    await w.h.request("PATCH", `${base}/conversations/${c.id}/messages/${m.id}`, {
      token: admin,
      body: { status: "read" },
    });
    await w.h.request("POST", `${base}/conversations/${c.id}/toggle_status`, {
      token: admin,
      body: { status: "pending" },
    });
    await w.h.request("POST", `${base}/conversations/${c.id}/assignments`, {
      token: admin,
      body: { assignee_id: w.agent.userId },
    });
    const team = (await w.h.request("POST", `${base}/teams`, { token: admin, body: { name: "billing" } })).body;
    await w.h.request("POST", `${base}/conversations/${c.id}/assignments`, {
      token: admin,
      body: { team_id: team.id },
    });
    await w.h.request("POST", `${base}/conversations/${c.id}/custom_attributes`, {
      token: admin,
      body: { custom_attributes: { plan: "gold" } },
    });
    await w.h.request("POST", `${base}/conversations/${c.id}/toggle_typing_status`, {
      token: admin,
      body: { typing_status: "on" },
    });
    await w.h.request("POST", `${base}/conversations/${c.id}/toggle_typing_status`, {
      token: admin,
      body: { typing_status: "off" },
    });
    const contact = (
      await w.h.request("POST", `${base}/contacts`, { token: admin, body: { name: "Zed", email: "zed@example.com" } })
    ).body.payload.contact;
    await w.h.request("PATCH", `${base}/contacts/${contact.id}`, { token: admin, body: { name: "Zed Z" } });
    await w.h.request("DELETE", `${base}/contacts/${contact.id}`, { token: admin });
    await w.h.deps.bus.drain(); // the notifications listener: conversation_creation and assignment

    const kinds = [
      "presence.update",
      "conversation.created",
      "message.created",
      "message.updated",
      "conversation.status_changed",
      "conversation.updated",
      "assignee.changed",
      "team.changed",
      "conversation.typing_on",
      "conversation.typing_off",
      "contact.created",
      "contact.updated",
      "contact.deleted",
      "notification.created",
    ];
    await waitFor(got, (g) => kinds.every((k) => g.some((e) => e.event === k)), signal);
    const dropped = got.filter((e) => e.data.account_id !== w.a.accountId).map((e) => e.event);
    expect(dropped).toEqual([]);
    expect([...new Set(got.map((e) => e.event))].sort()).toEqual([...kinds].sort());
  });
});

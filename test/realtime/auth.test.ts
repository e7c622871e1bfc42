// Who may connect and subscribe: tokens (query, header, identifier), user and contact pubsub
// tokens, the web session cookie (only from our own origin), and every refusal.
import { afterEach, describe, expect, test } from "bun:test";
import { CableClient } from "../helpers/cable.ts";
import { makeAccount } from "../helpers/factories.ts";
import { send } from "../helpers/conversation-fixtures.ts";
import { quiet, room, type Room } from "../helpers/realtime-fixtures.ts";
import { givePassword, signIn } from "../helpers/sessions.ts";

let r: Room | null = null;
afterEach(async () => {
  await r?.served.stop();
  r = null;
});

async function anonymous(room: Room) {
  return CableClient.connect(room.served.url());
}

describe("/cable connection", () => {
  test("welcome first; the ActionCable subprotocol is chosen when offered", async () => {
    r = await room();
    const c = await CableClient.connect(r.served.url(), {
      protocols: ["actioncable-v1-json", "actioncable-unsupported"],
    });
    expect(c.ws.protocol).toBe("actioncable-v1-json");
    await c.until((f) => f.type === "welcome");
    expect(c.frames[0]).toEqual({ type: "welcome" });
  });

  test("a wrong api_access_token (query or header) is told unauthorized and disconnected", async () => {
    r = await room();
    const attempts: { path: string; headers: Record<string, string> }[] = [
      { path: "/cable?api_access_token=nope", headers: {} },
      { path: "/cable", headers: { api_access_token: "nope" } },
    ];
    for (const opts of attempts) {
      const c = await CableClient.connect(r.served.url(opts.path), { headers: opts.headers });
      expect(await c.closed()).toEqual({ code: 1008, reason: "unauthorized" });
      expect(c.frames).toEqual([{ type: "disconnect", reason: "unauthorized", reconnect: false }]);
    }
  });

  test("pings every interval, with Unix seconds", async () => {
    r = await room();
    r.h.deps.realtime.limits.pingIntervalMs = 50; // read when the first socket starts the heartbeat
    const c = await anonymous(r);
    const frames: string[] = [];
    // The client counts pings in its own handler (registered first); this one resolves at the second.
    const twoPings = new Promise<void>((resolve) =>
      c.ws.addEventListener("message", (m) => {
        frames.push(String(m.data));
        if (c.pings >= 2) resolve();
      }),
    );
    await twoPings;
    expect(c.pings).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(frames.find((f) => f.includes("ping"))!)).toEqual({ type: "ping", message: 1767603600 });
  });
});

describe("RoomChannel subscriptions", () => {
  test("an agent by token in the query, the header or the identifier, or by their pubsub_token", async () => {
    r = await room();
    const viaQuery = await CableClient.connect(r.served.url(`/cable?api_access_token=${r.agent.token}`));
    const viaHeader = await CableClient.connect(r.served.url(), { headers: { api_access_token: r.agent.token } });
    const anon = await anonymous(r);
    expect((await viaQuery.subscribe({ account_id: r.a.accountId })).reply.type).toBe("confirm_subscription");
    expect((await viaHeader.subscribe({ account_id: String(r.a.accountId) })).reply.type).toBe("confirm_subscription");
    expect((await anon.subscribe({ api_access_token: r.agent.token, account_id: r.a.accountId })).reply.type).toBe(
      "confirm_subscription",
    );
    expect((await anon.subscribe({ pubsub_token: r.agentPubsub, account_id: r.a.accountId })).reply.type).toBe(
      "confirm_subscription",
    );
    await send(r, r.carlaA, { content: "to all" });
    for (const c of [viaQuery, viaHeader])
      expect((await c.eventCount(2)).map((e) => e.event)).toEqual(["message.created", "conversation.updated"]);
    await anon.eventCount(4); // two subscriptions on one socket, each with its identifier
    expect(new Set(anon.frames.filter((f) => f.message).map((f) => f.identifier)).size).toBe(2);
  });

  test("refusals: reject_subscription, nothing delivered", async () => {
    r = await room();
    const other = await makeAccount(r.h, "Other Co");
    const anon = await anonymous(r);
    const refused = [
      { account_id: r.a.accountId }, // no credentials at all
      { pubsub_token: "unknown-token" },
      { api_access_token: "wrong", account_id: r.a.accountId },
      { pubsub_token: r.agentPubsub }, // a user must name the account
      { pubsub_token: r.agentPubsub, account_id: other.accountId }, // not a member there
      { pubsub_token: r.agentPubsub, account_id: 999 },
      { pubsub_token: r.carlaToken, account_id: other.accountId }, // the contact's account is another
      { pubsub_token: r.agentPubsub, account_id: r.a.accountId, since: "yesterday" },
    ];
    for (const fields of refused) {
      const { identifier, reply } = await anon.subscribe(fields);
      expect(reply).toEqual({ type: "reject_subscription", identifier });
    }
    const wrongChannel = JSON.stringify({
      channel: "NotificationsChannel",
      pubsub_token: r.agentPubsub,
      account_id: r.a.accountId,
    });
    anon.ws.send(JSON.stringify({ command: "subscribe", identifier: wrongChannel }));
    expect(await anon.until((f) => f.identifier === wrongChannel)).toEqual({
      type: "reject_subscription",
      identifier: wrongChannel,
    });
    // Malformed frames are ignored; the socket stays usable.
    anon.ws.send("not json");
    anon.ws.send(JSON.stringify({ command: "explode", identifier: "x" }));
    expect((await anon.subscribe({ pubsub_token: r.carlaToken, account_id: r.a.accountId })).reply.type).toBe(
      "confirm_subscription",
    );
    await send(r, r.carlaA, { content: "only carla's subscription gets this" });
    await anon.eventCount(2);
    await quiet(r, anon);
    expect(anon.events()).toHaveLength(2);
  });

  test("a suspended account refuses its agents and contacts", async () => {
    r = await room();
    r.h.deps.db.query("UPDATE accounts SET status = 'suspended' WHERE id = ?").run(r.a.accountId);
    const anon = await anonymous(r);
    expect((await anon.subscribe({ pubsub_token: r.agentPubsub, account_id: r.a.accountId })).reply.type).toBe(
      "reject_subscription",
    );
    expect((await anon.subscribe({ pubsub_token: r.carlaToken })).reply.type).toBe("reject_subscription");
  });

  test("the web session cookie authenticates a socket opened by our own page, not by another site", async () => {
    r = await room();
    await givePassword(r.h, r.agent.userId);
    const session = await signIn(r.h, r.agent.email);
    const host = `127.0.0.1:${r.served.port}`;
    const ours = await CableClient.connect(r.served.url(), {
      headers: { cookie: session.cookie, origin: `http://${host}` },
    });
    expect((await ours.subscribe({ account_id: r.a.accountId })).reply.type).toBe("confirm_subscription");
    const noOrigin = await CableClient.connect(r.served.url(), { headers: { cookie: session.cookie } });
    expect((await noOrigin.subscribe({ account_id: r.a.accountId })).reply.type).toBe("confirm_subscription");
    const evil = await CableClient.connect(r.served.url(), {
      headers: { cookie: session.cookie, origin: "https://evil.example" },
    });
    expect((await evil.subscribe({ account_id: r.a.accountId })).reply.type).toBe("reject_subscription");
    const expired = await CableClient.connect(r.served.url(), { headers: { cookie: "parley_session=stale" } });
    expect((await expired.subscribe({ account_id: r.a.accountId })).reply.type).toBe("reject_subscription");
    expect(expired.closeEvent).toBeNull();
  });

  test("update_presence answers with the account's presence", async () => {
    r = await room();
    const admin = await CableClient.connect(r.served.url(`/cable?api_access_token=${r.a.adminToken}`));
    const { identifier } = await admin.subscribe({ account_id: r.a.accountId });
    admin.perform(identifier, { action: "update_presence" });
    const frame = await admin.until((f) => f.message?.event === "presence.update");
    expect(frame).toEqual({
      identifier,
      message: {
        event: "presence.update",
        data: { account_id: r.a.accountId, users: { [r.a.adminId]: "online" }, contacts: {} },
      },
    });
  });
});

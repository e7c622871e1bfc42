// A socket's commands keep their order while its identity is looked up (awaited on PostgreSQL's
// read pool): commands sent before the welcome, or right after a subscribe, are done after it; a
// socket that closes meanwhile is not subscribed afterwards; a lookup that fails closes the socket
// as a failing command does. The hub is driven here with lookups the test answers when it chooses,
// then over real sockets with the real lookups (both engines).
import { afterEach, describe, expect, test } from "bun:test";
import { known } from "../../src/db/reads.ts";
import type { UserRow } from "../../src/db/users.repo.ts";
import { RealtimeHub, type HubDeps } from "../../src/realtime/hub.ts";
import type { SubscriptionRequest } from "../../src/realtime/identify.ts";
import { Presence } from "../../src/realtime/presence.ts";
import { CableClient } from "../helpers/cable.ts";
import { send } from "../helpers/conversation-fixtures.ts";
import { quiet, room, type Room } from "../helpers/realtime-fixtures.ts";

const ACCOUNT = 7;
const USER = { id: 3 } as UserRow;
const X = JSON.stringify({ channel: "RoomChannel", account_id: ACCOUNT });
const Y = JSON.stringify({ channel: "RoomChannel", account_id: ACCOUNT, since: 0 });

/** A lookup the test answers when it chooses. */
function pending<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Every promise continuation that can run has run (a check, not a wait for time to pass). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A hub whose connection and subscription lookups are awaited, answered by the test in order. */
function hubWithLookups(opts: { anonymousAtOnce?: boolean } = {}) {
  const opens: ReturnType<typeof pending<UserRow | null>>[] = [];
  const subscribes: ReturnType<typeof pending<SubscriptionRequest | null>>[] = [];
  const errors: string[] = [];
  const presence = new Presence();
  const identity = {
    connection: () => {
      if (opts.anonymousAtOnce) return null;
      opens.push(pending());
      return opens.at(-1)!.promise;
    },
    connectionCredential: () => null,
    subscription: () => {
      subscribes.push(pending());
      return subscribes.at(-1)!.promise;
    },
  };
  const member = { user_id: USER.id, role: "agent", availability: "online", auto_offline: 1 };
  const deps = {
    events: {},
    realtime: { readAccountMembers: () => known(new Map([[USER.id, member]])) },
    identity,
    renderer: {},
    feed: { head: () => 0 },
    presence,
    clock: { nowMs: () => 0 },
    logger: { debug() {}, info() {}, warn() {}, error: (msg: string) => errors.push(msg) },
  } as unknown as HubDeps;
  const hub = new RealtimeHub(deps);
  const frames: unknown[] = [];
  const socket = {
    closedWith: null as { code: number; reason: string } | null,
    send: (data: string) => frames.push(JSON.parse(data)),
    bufferedAmount: () => 0,
    close(code: number, reason: string) {
      socket.closedWith = { code, reason };
    },
  };
  const conn = hub.open(socket, { apiToken: "token" })!;
  const command = (command: string, identifier: string, data?: Record<string, unknown>) =>
    hub.command(conn, JSON.stringify({ command, identifier, ...(data ? { data: JSON.stringify(data) } : {}) }));
  const agent = (since: number | null): SubscriptionRequest => ({
    viewer: { kind: "user", accountId: ACCOUNT, userId: USER.id },
    since,
  });
  return { hub, conn, socket, frames, opens, subscribes, errors, presence, command, agent };
}

describe("a socket's commands while its identity is looked up", () => {
  test("those sent before the welcome and right after a subscribe are done after it, in order", async () => {
    const t = hubWithLookups();
    t.command("subscribe", X);
    t.command("message", X, { action: "update_presence" });
    t.command("subscribe", Y);
    t.command("unsubscribe", X);
    await settled();
    expect(t.frames).toEqual([]); // the connection's token is still being looked up

    t.opens[0]!.resolve(USER);
    await settled();
    expect(t.frames).toEqual([{ type: "welcome" }]);
    expect(t.subscribes).toHaveLength(1); // the second subscribe waits behind the first

    t.subscribes[0]!.resolve(t.agent(null));
    await settled();
    const presence = { event: "presence.update", data: { account_id: ACCOUNT, users: { 3: "online" }, contacts: {} } };
    expect(t.frames).toEqual([
      { type: "welcome" },
      { type: "confirm_subscription", identifier: X },
      { identifier: X, message: presence },
    ]);
    expect(t.hub.stats()).toEqual({ connections: 1, subscriptions: 1 });
    expect(t.subscribes).toHaveLength(2);

    t.subscribes[1]!.resolve(null);
    await settled();
    expect(t.frames.slice(3)).toEqual([{ type: "reject_subscription", identifier: Y }]);
    expect(t.hub.stats()).toEqual({ connections: 1, subscriptions: 0 }); // the unsubscribe came last
    expect(t.presence.isOnline(ACCOUNT, USER.id)).toBe(false);
    t.hub.shutdown();
  });

  test("a socket closed while its subscribe is looked up is not subscribed afterwards", async () => {
    const t = hubWithLookups({ anonymousAtOnce: true });
    t.command("subscribe", X);
    t.command("subscribe", Y);
    t.hub.closed(t.conn);
    t.subscribes[0]!.resolve(t.agent(null));
    await settled();
    expect(t.frames).toEqual([{ type: "welcome" }]);
    expect(t.subscribes).toHaveLength(1); // the subscribe behind it was dropped
    expect(t.hub.stats()).toEqual({ connections: 0, subscriptions: 0 });
    expect(t.hub.listening(ACCOUNT, USER.id)).toBe(false);
    expect(t.presence.isOnline(ACCOUNT, USER.id)).toBe(false);
  });

  test("a socket closed while its token is looked up is never welcomed", async () => {
    const t = hubWithLookups();
    t.command("subscribe", X);
    t.hub.closed(t.conn);
    t.opens[0]!.resolve(USER);
    await settled();
    expect(t.frames).toEqual([]);
    expect(t.subscribes).toHaveLength(0);
    expect(t.hub.stats()).toEqual({ connections: 0, subscriptions: 0 });
  });

  test("a lookup that fails closes the socket as a failing command does; what waited is dropped", async () => {
    const t = hubWithLookups({ anonymousAtOnce: true });
    t.command("subscribe", X);
    t.command("subscribe", Y);
    t.subscribes[0]!.reject(new Error("read pool gone"));
    await settled();
    expect(t.errors).toEqual(["cable handler failed"]);
    expect(t.socket.closedWith).toEqual({ code: 1011, reason: "internal error" });
    expect(t.frames).toEqual([{ type: "welcome" }]);
    expect(t.subscribes).toHaveLength(1);
    expect(t.hub.stats()).toEqual({ connections: 0, subscriptions: 0 });
  });
});

let r: Room | null = null;
afterEach(async () => {
  await r?.served.stop();
  r = null;
});

describe("a socket's commands sent back to back", () => {
  test("a message right after a subscribe is answered after it; a subscribe then an unsubscribe ends unsubscribed", async () => {
    r = await room();
    // Sent as soon as the socket is open, before its welcome: the token may still be being looked up.
    const admin = await CableClient.connect(r.served.url(`/cable?api_access_token=${r.a.adminToken}`));
    const subscribing = admin.subscribe({ account_id: r.a.accountId }); // sent at once, answered later
    const watching = JSON.stringify({ channel: "RoomChannel", account_id: r.a.accountId });
    admin.perform(watching, { action: "update_presence" });
    expect((await subscribing).reply.type).toBe("confirm_subscription");
    await admin.sync(); // a round trip: the answer to the message came before it, or not at all
    expect(admin.frames).toEqual([
      { type: "welcome" },
      { type: "confirm_subscription", identifier: watching },
      {
        identifier: watching,
        message: {
          event: "presence.update",
          data: { account_id: r.a.accountId, users: { [r.a.adminId]: "online" }, contacts: {} },
        },
      },
      { type: "confirm_subscription", identifier: watching },
    ]);

    const agent = await CableClient.connect(r.served.url());
    const kept = await agent.subscribe({ pubsub_token: r.agentPubsub, account_id: r.a.accountId });
    expect(kept.reply.type).toBe("confirm_subscription");
    const dropped = JSON.stringify({
      channel: "RoomChannel",
      api_access_token: r.agent.token,
      account_id: r.a.accountId,
    });
    agent.ws.send(JSON.stringify({ command: "subscribe", identifier: dropped }));
    agent.ws.send(JSON.stringify({ command: "unsubscribe", identifier: dropped }));
    expect(await agent.until((f) => f.identifier === dropped)).toEqual({
      type: "confirm_subscription",
      identifier: dropped,
    });

    expect((await send(r, r.carlaA, { content: "after the unsubscribe" })).status).toBe(200);
    // The administrator's socket hears it, and the agent's kept subscription: the frames of one
    // fan-out reach a socket in one write, so a leaked subscription's would have come with them.
    expect((await admin.eventCount(2)).map((e) => e.event)).toEqual(["message.created", "conversation.updated"]);
    expect((await agent.eventCount(2)).map((e) => e.event)).toEqual(["message.created", "conversation.updated"]);
    await quiet(r, admin, agent);
    const withMessages = agent.frames.filter((f) => f.message && typeof f.message.seq === "number");
    expect(withMessages.map((f) => f.identifier)).toEqual([kept.identifier, kept.identifier]);
    expect(r.h.deps.realtime.stats()).toEqual({ connections: 2, subscriptions: 2 });
  });
});

// toggle_typing_status (recorded for webhooks, streamed as conversation.typing_on/off) and presence
// (connected agents are online when auto_offline is on; presence.update on connect and disconnect).
import { afterEach, describe, expect, test } from "bun:test";
import { CableClient } from "../helpers/cable.ts";
import { until } from "../helpers/until.ts";
import { makeAccount } from "../helpers/factories.ts";
import { quiet, room, type Room } from "../helpers/realtime-fixtures.ts";

let r: Room | null = null;
afterEach(async () => {
  await r?.served.stop();
  r = null;
});

const typing = (room: Room, body: unknown, token = room.agent.token, id = room.carlaA) =>
  room.h.request("POST", `${room.base}/conversations/${id}/toggle_typing_status`, { token, body });

describe("POST toggle_typing_status", () => {
  test("records conversation_typing_on with Chatwoot's webhook payload; answers 200 with no body", async () => {
    r = await room();
    const before = r.h.lastEventId();
    const res = await typing(r, { typing_status: "on" });
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    const [event, ...rest] = r.h.events(before);
    expect(rest).toEqual([]);
    expect(event).toMatchObject({
      kind: "conversation_typing_on",
      actor: { type: "user", id: r.agent.userId },
      inboxId: r.inboxId,
      contactId: r.contactId,
      private: false,
    });
    expect(event!.payload).toEqual({
      user: { id: r.agent.userId, name: "Ann Agent", email: r.agent.email, type: "user" },
      conversation: expect.objectContaining({ id: r.carlaA, inbox_id: r.inboxId, status: "open" }),
      is_private: false,
    });
    expect((await typing(r, { typing_status: "off", is_private: "true" })).status).toBe(200);
    expect(r.h.events(before + 1)[0]).toMatchObject({
      kind: "conversation_typing_off",
      private: true,
      payload: { is_private: true },
    });
  });

  test("refusals: bad status 422, no token 401, another account 404, an agent outside the inbox 403 — nothing recorded", async () => {
    r = await room();
    const other = await makeAccount(r.h, "Other");
    const before = r.h.lastEventId();
    const bad = await typing(r, { typing_status: "maybe" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: "typing_status", message: "must be on or off", code: "invalid" }]);
    expect((await typing(r, {})).status).toBe(422);
    expect((await typing(r, { typing_status: "on" }, null as unknown as string)).status).toBe(401);
    expect((await typing(r, { typing_status: "on" }, other.adminToken)).status).toBe(401);
    expect(
      (
        await r.h.request(
          "POST",
          `/api/v1/accounts/${other.accountId}/conversations/${r.carlaA}/toggle_typing_status`,
          { token: other.adminToken, body: { typing_status: "on" } },
        )
      ).status,
    ).toBe(404);
    expect((await typing(r, { typing_status: "on" }, r.outsider.token)).status).toBe(403);
    expect((await typing(r, { typing_status: "on" }, r.agent.token, 999)).status).toBe(404);
    expect(r.h.lastEventId()).toBe(before);
  });

  test("streamed to the conversation's other agents and its contact, not to the typist; private typing not to the contact", async () => {
    r = await room();
    const admin = await CableClient.connect(r.served.url(`/cable?api_access_token=${r.a.adminToken}`));
    await admin.subscribe({ account_id: r.a.accountId });
    const agent = await CableClient.connect(r.served.url(`/cable?api_access_token=${r.agent.token}`));
    await agent.subscribe({ account_id: r.a.accountId });
    const carla = await CableClient.connect(r.served.url());
    await carla.subscribe({ pubsub_token: r.carlaToken });
    const start = r.h.lastEventId();
    await typing(r, { typing_status: "on" });
    await typing(r, { typing_status: "off" });
    await typing(r, { typing_status: "on", is_private: true });
    await admin.eventCount(3);
    await quiet(r, admin, agent, carla);
    const on = admin.events()[0]!;
    expect(on).toEqual({
      event: "conversation.typing_on",
      seq: start + 1,
      data: {
        conversation: r.h.events(start)[0]!.payload.conversation,
        // The typist's push data; they are connected, so online.
        user: {
          id: r.agent.userId,
          name: "Ann Agent",
          available_name: "Ann Agent",
          avatar_url: "",
          type: "user",
          availability_status: "online",
          thumbnail: "",
        },
        is_private: false,
        account_id: r.a.accountId,
      },
    });
    expect(admin.events().map((e) => [e.event, e.data.is_private])).toEqual([
      ["conversation.typing_on", false],
      ["conversation.typing_off", false],
      ["conversation.typing_on", true],
    ]);
    expect(agent.events()).toEqual([]);
    expect(carla.events().map((e) => [e.seq - start, e.event])).toEqual([
      [1, "conversation.typing_on"],
      [2, "conversation.typing_off"],
    ]);
  });
});

describe("presence", () => {
  test("an auto_offline agent is online while subscribed: agents list, profile and presence.update follow", async () => {
    r = await room();
    r.h.deps.realtime.limits.presenceDelayMs = 10;
    const status = async () => {
      const agents = await r!.h.request("GET", `${r!.base}/agents`, { token: r!.a.adminToken });
      const profile = await r!.h.request("GET", "/api/v1/profile", { token: r!.agent.token });
      return [
        agents.body.find((a: { id: number }) => a.id === r!.agent.userId).availability_status,
        profile.body.accounts[0].availability_status,
      ];
    };
    expect(await status()).toEqual(["offline", "offline"]);
    const admin = await CableClient.connect(r.served.url(`/cable?api_access_token=${r.a.adminToken}`));
    await admin.subscribe({ account_id: r.a.accountId });
    const carla = await CableClient.connect(r.served.url());
    await carla.subscribe({ pubsub_token: r.carlaToken });
    // The broadcast of who came so far is out before the agent joins.
    await admin.until((f) => f.message?.event === "presence.update" && f.message.data.contacts?.[r!.contactId]);
    const agent = await CableClient.connect(r.served.url(`/cable?api_access_token=${r.agent.token}`));
    const sub = await agent.subscribe({ account_id: r.a.accountId });
    expect(await status()).toEqual(["online", "online"]);
    const online = { [r.a.adminId]: "online", [r.agent.userId]: "online" };
    await admin.until((f) => f.message?.event === "presence.update" && Object.keys(f.message.data.users).length === 2);
    expect(admin.messages("presence.update").at(-1)).toEqual({
      event: "presence.update",
      data: { account_id: r.a.accountId, users: online, contacts: { [r.contactId]: "online" } },
    });
    // Contacts learn which agents are available, not who the other contacts are.
    await carla.until((f) => f.message?.event === "presence.update" && Object.keys(f.message.data.users).length === 2);
    expect(carla.messages("presence.update").at(-1)).toEqual({
      event: "presence.update",
      data: { account_id: r.a.accountId, users: online },
    });

    const mark = admin.frames.length;
    agent.ws.send(JSON.stringify({ command: "unsubscribe", identifier: sub.identifier }));
    const after = await admin.until((f) => admin.frames.indexOf(f) >= mark && f.message?.event === "presence.update");
    expect(after.message.data.users).toEqual({ [r.a.adminId]: "online" });
    expect(await status()).toEqual(["offline", "offline"]);
  }, 30_000);

  test("availability busy shows while connected; an agent with auto_offline off keeps the chosen availability", async () => {
    r = await room();
    r.h.deps.db.query("UPDATE account_users SET availability = 'busy' WHERE user_id = ?").run(r.agent.userId);
    r.h.deps.db.query("UPDATE account_users SET auto_offline = 0 WHERE user_id = ?").run(r.outsider.userId);
    const statusOf = async (id: number) =>
      (await r!.h.request("GET", `${r!.base}/agents`, { token: r!.a.adminToken })).body.find(
        (a: { id: number }) => a.id === id,
      ).availability_status;
    expect(await statusOf(r.agent.userId)).toBe("offline");
    expect(await statusOf(r.outsider.userId)).toBe("online");
    const agent = await CableClient.connect(r.served.url(`/cable?api_access_token=${r.agent.token}`));
    await agent.subscribe({ account_id: r.a.accountId });
    expect(await statusOf(r.agent.userId)).toBe("busy");
    agent.close();
    await agent.closed();
    await until(() => r!.h.deps.realtime.stats().connections === 0); // the server has taken the close too
    expect(await statusOf(r.agent.userId)).toBe("offline");
  });

  test("an agent who sets their availability (profile, or an administrator's change) is heard by the account's sockets", async () => {
    r = await room();
    r.h.deps.realtime.limits.presenceDelayMs = 10;
    const admin = await CableClient.connect(r.served.url(`/cable?api_access_token=${r.a.adminToken}`));
    await admin.subscribe({ account_id: r.a.accountId });
    const agent = await CableClient.connect(r.served.url(`/cable?api_access_token=${r.agent.token}`));
    await agent.subscribe({ account_id: r.a.accountId });
    const statusIn = (f: { message?: { event?: string; data?: { users: Record<string, string> } } }, status: string) =>
      f.message?.event === "presence.update" && f.message.data?.users[r!.agent.userId] === status;
    await admin.until((f) => statusIn(f, "online"));
    // The mobile app's toggle: POST /api/v1/profile/availability.
    const set = await r.h.request("POST", "/api/v1/profile/availability", {
      token: r.agent.token,
      body: { profile: { availability: "busy", account_id: String(r.a.accountId) } },
    });
    expect(set.status).toBe(200);
    const busy = await admin.until((f) => statusIn(f, "busy"));
    expect(busy.message.data.users).toEqual({ [r.a.adminId]: "online", [r.agent.userId]: "busy" });
    // An administrator changing it in the agents list is heard the same way.
    const patched = await r.h.request("PATCH", `${r.base}/agents/${r.agent.userId}`, {
      token: r.a.adminToken,
      body: { availability: "online" },
    });
    expect(patched.status).toBe(200);
    await admin.until((f) => statusIn(f, "online") && admin.frames.indexOf(f) > admin.frames.indexOf(busy));
  }, 30_000);
});

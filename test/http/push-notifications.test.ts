// Mobile push: the Chatwoot mobile app registers a device (POST /api/v1/notification_subscriptions)
// and removes it (DELETE); a notification the agent chose as push goes to a relay speaking Chatwoot's
// hub protocol (a real HTTP receiver here), and what the app reads from it opens the conversation.
import { afterEach, describe, expect, test } from "bun:test";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { newConversation, world, type World } from "../helpers/conversation-fixtures.ts";
import { makeMember } from "../helpers/factories.ts";
import { startReceiver, type Receiver } from "../helpers/webhooks.ts";

let relay: Receiver | null = null;
afterEach(async () => {
  await relay?.stop();
  relay = null;
});

/** The app's saveDeviceDetails payload (src/store/settings/settingsActions.ts). */
const device = (token: string, deviceId = "device-1") => ({
  subscription_type: "fcm",
  subscription_attributes: {
    deviceName: "Google Pixel 8",
    devicePlatform: "Android",
    apiLevel: "34",
    brandName: "google",
    buildNumber: "312",
    push_token: token,
    device_id: deviceId,
  },
});

const subscribe = (w: World, token: string, body: unknown) =>
  w.h.request("POST", "/api/v1/notification_subscriptions", { token, body });

async function pushWorld(status = () => 200) {
  relay = startReceiver(status);
  const w = await world({ env: { PARLEY_PUSH_RELAY_URL: relay.url, PARLEY_PUBLIC_URL: "https://help.acme.test" } });
  return { w, relay };
}

/** What the app does with a push (src/utils/pushUtils.ts): the notification, then the link it opens. */
function opened(body: { fcm_options: { data: { payload: string } } }) {
  const n = JSON.parse(body.fcm_options.data.payload).data.notification;
  return `/conversations/${n.primary_actor.id}/${n.primary_actor_id}/${n.primary_actor_type}`;
}

describe("notification_subscriptions", () => {
  test("a device registers, re-registers in place, moves to whoever signs in on it, and is removed by token", async () => {
    const { w } = await pushWorld();
    const first = await subscribe(w, w.agent.token, device("token-a"));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      user_id: w.agent.userId,
      subscription_type: "fcm",
      identifier: "device-1",
      subscription_attributes: { push_token: "token-a", deviceName: "Google Pixel 8" },
    });
    const again = await subscribe(w, w.agent.token, device("token-b"));
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.subscription_attributes.push_token).toBe("token-b");
    const moved = await subscribe(w, w.outsider.token, device("token-c"));
    expect(moved.body).toMatchObject({ id: first.body.id, user_id: w.outsider.userId });
    expect(w.h.deps.repos.push.subscriptionsOf(w.agent.userId)).toEqual([]);

    // Removing is the caller's own devices only: another user's token leaves it in place.
    const del = (token: string, push_token: string) =>
      w.h.request("DELETE", "/api/v1/notification_subscriptions", { token, body: { push_token } });
    expect((await del(w.agent.token, "token-c")).status).toBe(200);
    expect(w.h.deps.repos.push.subscriptionsOf(w.outsider.userId)).toHaveLength(1);
    expect((await del(w.outsider.token, "token-c")).status).toBe(200);
    expect(w.h.deps.repos.push.subscriptionsOf(w.outsider.userId)).toEqual([]);
    expect((await del(w.outsider.token, "never-registered")).status).toBe(200);
  });

  test("bad input is a 422 naming the field and stores nothing; no token is a 401", async () => {
    const { w } = await pushWorld();
    for (const [body, field] of [
      [{}, "subscription_type"],
      [{ ...device("t"), subscription_type: "browser_push" }, "subscription_type"],
      [{ subscription_type: "fcm", subscription_attributes: "token" }, "subscription_attributes"],
      [{ subscription_type: "fcm", subscription_attributes: { device_id: "d" } }, "subscription_attributes.push_token"],
      [{ subscription_type: "fcm", subscription_attributes: { push_token: "t" } }, "subscription_attributes.device_id"],
      [
        { subscription_type: "fcm", subscription_attributes: { push_token: 5, device_id: "d" } },
        "subscription_attributes.push_token",
      ],
      [device("x".repeat(5000)), "subscription_attributes.push_token"],
      [
        {
          subscription_type: "fcm",
          subscription_attributes: { push_token: "t", device_id: "d", junk: "y".repeat(5000) },
        },
        "subscription_attributes",
      ],
    ] as const) {
      const r = await subscribe(w, w.agent.token, body);
      expect({ field, status: r.status, got: r.body.errors?.[0]?.field }).toEqual({ field, status: 422, got: field });
    }
    expect(w.h.deps.repos.push.subscriptionsOf(w.agent.userId)).toEqual([]);
    const missing = await w.h.request("DELETE", "/api/v1/notification_subscriptions", {
      token: w.agent.token,
      body: {},
    });
    expect(missing.status).toBe(422);
    expect((await subscribe(w, "not-a-token", device("t"))).status).toBe(401);
  });
});

describe("pushes through the relay", () => {
  test("an assignment reaches each of the agent's devices in Chatwoot's hub format, and opens the conversation", async () => {
    const { w, relay } = await pushWorld();
    await subscribe(w, w.agent.token, device("phone-token", "phone"));
    await subscribe(w, w.agent.token, device("tablet-token", "tablet"));
    const c = await newConversation(w, { assignee_id: w.agent.userId });
    await w.h.deps.bus.drain();
    // Its reads and bookkeeping never hold the process through PostgreSQL's bridge in place.
    expect(await inPlaceDuring(() => w.h.deps.pushRelay.drain())).toEqual([]);
    const assigned = relay.received.filter((r) => r.json.fcm_options.notification.title.includes("assigned"));
    expect(assigned.map((r) => r.json.fcm_options.token).sort()).toEqual(["phone-token", "tablet-token"]);
    const push = assigned[0]!.json;
    expect(push.fcm_options.notification).toEqual({ title: `Conversation #${c.id} was assigned to you`, body: "" });
    expect(push.fcm_options.android).toEqual({ priority: "high" });
    expect(push.installation_host).toBe("help.acme.test");
    expect(push.installation_identifier).toMatch(/^[0-9a-f-]{36}$/);
    const row = w.h.deps.db.query("SELECT id FROM conversations WHERE display_id = ?").get(c.id) as { id: number };
    expect(opened(push)).toBe(`/conversations/${c.id}/${row.id}/Conversation`);
  });

  test("a type turned off is not pushed; a relay that fails is retried until it answers, once per push", async () => {
    let calls = 0;
    const { w, relay } = await pushWorld(() => (++calls === 1 ? 503 : 200));
    await subscribe(w, w.agent.token, device("phone-token"));
    const off = await w.h.request("PATCH", `${w.base}/notification_settings`, {
      token: w.agent.token,
      body: { notification_settings: { selected_push_flags: ["push_conversation_assignment"] } },
    });
    expect(off.status).toBe(200);
    await newConversation(w); // conversation_creation: not chosen
    await w.h.deps.bus.drain();
    await w.h.deps.pushRelay.drain();
    expect(relay.received).toHaveLength(0);

    const c = await newConversation(w);
    await w.h.request("POST", `${w.base}/conversations/${c.id}/assignments`, {
      token: w.a.adminToken,
      body: { assignee_id: w.agent.userId },
    });
    await w.h.deps.bus.drain();
    await w.h.deps.pushRelay.drain();
    expect(relay.received).toHaveLength(1); // the relay said 503
    w.h.clock.advance(15_000);
    await w.h.deps.pushRelay.drain();
    expect(relay.received).toHaveLength(2);
    const states = w.h.deps.db.query("SELECT state, attempts FROM notification_pushes").all();
    expect(states).toEqual([{ state: "sent", attempts: 2 }]);
  });

  test("a phone that changes hands gets none of the previous user's unsent pushes", async () => {
    const { w, relay } = await pushWorld(() => 503);
    await subscribe(w, w.agent.token, device("shared-phone", "shared"));
    await newConversation(w, { assignee_id: w.agent.userId });
    await w.h.deps.bus.drain();
    await w.h.deps.pushRelay.drain(); // refused: still pending, to be retried
    const tried = relay.received.length;
    expect(tried).toBeGreaterThan(0);
    await subscribe(w, w.outsider.token, device("shared-phone", "shared")); // Otto signs in on it
    relay.behaviour = () => 200;
    w.h.clock.advance(3_600_000);
    await w.h.deps.pushRelay.drain();
    expect(relay.received).toHaveLength(tried);
    expect(w.h.deps.db.query("SELECT count(*) AS n FROM notification_pushes WHERE state = 'pending'").get()).toEqual({
      n: 0,
    });
  });

  test("without a relay nothing is queued; a member's devices never get another member's notifications", async () => {
    const plain = await world();
    await subscribe(plain, plain.agent.token, device("t"));
    await newConversation(plain, { assignee_id: plain.agent.userId });
    await plain.h.deps.bus.drain();
    expect(plain.h.deps.db.query("SELECT count(*) AS n FROM notification_pushes").get()).toEqual({ n: 0 });

    const { w, relay } = await pushWorld();
    const other = await makeMember(w.h, w.a.accountId, "agent", "Oli Other");
    await subscribe(w, other.token, device("other-phone", "other"));
    await newConversation(w, { assignee_id: w.agent.userId });
    await w.h.deps.bus.drain();
    await w.h.deps.pushRelay.drain();
    expect(relay.received.map((r) => r.json.fcm_options.token)).toEqual([]);
  });
});

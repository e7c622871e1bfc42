// Taking credentials back cuts realtime off: Chatwoot's reset_access_token revokes every API token
// of the user (sockets opened with one close), and signing out everywhere ends every browser session
// (the socket opened with the session cookie closes). Other users' sockets stay.
import { afterEach, describe, expect, test } from "bun:test";
import { CableClient, listen, type Served } from "../helpers/cable.ts";
import { world } from "../helpers/conversation-fixtures.ts";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { givePassword, signIn } from "../helpers/sessions.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

let served: Served | null = null;
afterEach(async () => {
  await served?.stop();
  served = null;
});

describe("credentials taken back", () => {
  test("POST /api/v1/profile/reset_access_token: a new token, the old one refused, its sockets closed", async () => {
    const w = await world();
    served = listen(w.h);
    const before = (await w.h.request("GET", "/api/v1/profile", { token: w.agent.token })).body;
    const viaUrl = await CableClient.connect(served.url(`/cable?api_access_token=${w.agent.token}`));
    expect((await viaUrl.subscribe({ account_id: w.a.accountId })).reply.type).toBe("confirm_subscription");
    const viaField = await CableClient.connect(served.url());
    expect((await viaField.subscribe({ api_access_token: w.agent.token, account_id: w.a.accountId })).reply.type).toBe(
      "confirm_subscription",
    );
    const admin = await CableClient.connect(served.url(`/cable?api_access_token=${w.a.adminToken}`));
    expect((await admin.subscribe({ account_id: w.a.accountId })).reply.type).toBe("confirm_subscription");

    const reset = await w.h.request("POST", "/api/v1/profile/reset_access_token", { token: w.agent.token });
    expect(reset.status).toBe(200);
    expect(reset.body.id).toBe(w.agent.userId);
    expect(reset.body.access_token).not.toBe(w.agent.token);
    expect(reset.body.pubsub_token).not.toBe(before.pubsub_token);
    expect((await w.h.request("GET", "/api/v1/profile", { token: w.agent.token })).status).toBe(401);
    expect((await w.h.request("GET", "/api/v1/profile", { token: reset.body.access_token })).body.email).toBe(
      w.agent.email,
    );

    w.h.deps.realtime.checkCredentials(); // what every ping does
    expect(await viaUrl.closed()).toEqual({
      code: 1008,
      reason: "credentials changed: connect again with the new token",
    });
    expect((await viaField.closed()).code).toBe(1008);
    expect(admin.closeEvent).toBeNull();
    admin.close();
  });

  test("DELETE /auth/sessions: every session of the user ends and its cookie socket closes", async () => {
    const w = await world();
    served = listen(w.h);
    await givePassword(w.h, w.agent.userId);
    const first = await signIn(w.h, w.agent.email);
    const second = await signIn(w.h, w.agent.email);
    const socket = await CableClient.connect(served.url(), { headers: { cookie: first.cookie } });
    expect((await socket.subscribe({ account_id: w.a.accountId })).reply.type).toBe("confirm_subscription");

    const noCsrf = await w.h.request("DELETE", "/auth/sessions", { headers: { cookie: second.cookie } });
    expect(noCsrf.status).toBe(403);
    const out = await w.h.request("DELETE", "/auth/sessions", {
      headers: { cookie: second.cookie, "x-csrf-token": second.csrf },
    });
    expect(out.body).toEqual({ success: true, sessions_ended: 2 });
    expect((await w.h.request("GET", "/auth/session", { headers: { cookie: first.cookie } })).status).toBe(401);
    expect((await w.h.request("GET", "/api/v1/profile", { token: w.agent.token })).status).toBe(200); // API tokens stay

    w.h.deps.realtime.checkCredentials();
    expect((await socket.closed()).code).toBe(1008);
  });

  test.skipIf(TEST_ENGINE !== "postgres")(
    "on PostgreSQL the check awaits its lookups on the read pool: nothing is sent in place",
    async () => {
      const w = await world();
      served = listen(w.h);
      await givePassword(w.h, w.agent.userId);
      const browser = await signIn(w.h, w.agent.email);
      const pubsub = (await w.h.request("GET", "/api/v1/profile", { token: w.agent.token })).body.pubsub_token;
      const viaToken = await CableClient.connect(served.url(`/cable?api_access_token=${w.agent.token}`));
      const viaCookie = await CableClient.connect(served.url(), { headers: { cookie: browser.cookie } });
      const viaPubsub = await CableClient.connect(served.url());
      const admin = await CableClient.connect(served.url(`/cable?api_access_token=${w.a.adminToken}`));
      const subscribed = [
        await viaToken.subscribe({ account_id: w.a.accountId }),
        await viaCookie.subscribe({ account_id: w.a.accountId }),
        await viaPubsub.subscribe({ pubsub_token: pubsub, account_id: w.a.accountId }),
        await admin.subscribe({ account_id: w.a.accountId }),
      ];
      expect(subscribed.map((s) => s.reply.type)).toEqual(Array(4).fill("confirm_subscription"));
      await w.h.deps.bus.drain();
      w.h.deps.commits.flush();

      // Nothing changed: every socket stays.
      expect(await blockingDuring(async () => void (await w.h.deps.realtime.checkCredentials()))).toEqual([]);
      expect([viaToken, viaCookie, viaPubsub, admin].map((c) => c.closeEvent)).toEqual([null, null, null, null]);

      // Signing out everywhere rotates the pubsub_token and ends the session; a token reset revokes the API token.
      const out = await w.h.request("DELETE", "/auth/sessions", {
        headers: { cookie: browser.cookie, "x-csrf-token": browser.csrf },
      });
      expect(out.body.success).toBe(true);
      const reset = await w.h.request("POST", "/api/v1/profile/reset_access_token", { token: w.agent.token });
      expect(reset.status).toBe(200);
      w.h.deps.commits.flush();
      expect(await blockingDuring(async () => void (await w.h.deps.realtime.checkCredentials()))).toEqual([]);
      expect([
        (await viaToken.closed()).code,
        (await viaCookie.closed()).code,
        (await viaPubsub.closed()).code,
      ]).toEqual([1008, 1008, 1008]);
      expect(admin.closeEvent).toBeNull();
      admin.close();
    },
  );
});

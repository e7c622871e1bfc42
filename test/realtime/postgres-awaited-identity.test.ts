// Who a socket is, on PostgreSQL, without holding the process: opening /cable with an API token or
// the session cookie, and subscribing with a user's or a contact's pubsub_token, an api_access_token
// in the identifier or the connection's own user, look the token and the membership up on the read
// pool, sending nothing through the synchronous bridge in place. The frames are those of the
// in-place lookups: welcome, confirm, reject, and unauthorized for a bad token. PostgreSQL only.
import { afterEach, describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { CableClient } from "../helpers/cable.ts";
import { makeAccount } from "../helpers/factories.ts";
import { room, type Room } from "../helpers/realtime-fixtures.ts";
import { givePassword, signIn } from "../helpers/sessions.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

let r: Room | null = null;
afterEach(async () => {
  await r?.served.stop();
  r = null;
});

describe.skipIf(TEST_ENGINE !== "postgres")("the cable's identity lookups on PostgreSQL", () => {
  test("opening and subscribing by token, cookie and pubsub_token: same frames, nothing in place", async () => {
    const w = await room();
    r = w;
    const other = await makeAccount(w.h, "Other Co");
    await givePassword(w.h, w.agent.userId);
    const browser = await signIn(w.h, w.agent.email);
    // A new password rotates the pubsub_token: the one the agent's client holds now.
    const pubsub = (await w.h.request("GET", "/api/v1/profile", { token: w.agent.token })).body.pubsub_token;
    await w.h.deps.bus.drain();
    w.h.deps.commits.flush();
    const url = (path?: string) => w.served.url(path);
    const account = w.a.accountId;
    const replies: unknown[] = [];
    const sockets: CableClient[] = [];
    const reply = async (client: CableClient, fields: Record<string, unknown>) => {
      const { identifier, reply } = await client.subscribe(fields);
      replies.push([reply.type, reply.identifier === identifier]);
    };

    const blocking = await blockingDuring(async () => {
      const viaToken = await CableClient.connect(url(`/cable?api_access_token=${w.agent.token}`));
      const viaCookie = await CableClient.connect(url(), { headers: { cookie: browser.cookie } });
      const staleCookie = await CableClient.connect(url(), { headers: { cookie: "parley_session=stale" } });
      const anonymous = await CableClient.connect(url());
      const badToken = await CableClient.connect(url("/cable?api_access_token=nope"));
      sockets.push(viaToken, viaCookie, staleCookie, anonymous);
      expect(await badToken.closed()).toEqual({ code: 1008, reason: "unauthorized" });
      expect(badToken.frames).toEqual([{ type: "disconnect", reason: "unauthorized", reconnect: false }]);

      await reply(viaToken, { account_id: account });
      await reply(viaCookie, { account_id: String(account) });
      await reply(staleCookie, { account_id: account }); // an expired cookie: anonymous
      await reply(anonymous, { pubsub_token: pubsub, account_id: account });
      await reply(anonymous, { pubsub_token: w.carlaToken });
      await reply(anonymous, { api_access_token: w.agent.token, account_id: account });
      await reply(anonymous, { api_access_token: "wrong", account_id: account });
      await reply(anonymous, { pubsub_token: "unknown-token", account_id: account });
      await reply(anonymous, { pubsub_token: pubsub, account_id: other.accountId });
      await reply(anonymous, { pubsub_token: w.carlaToken, account_id: other.accountId });
      await reply(viaToken, { api_access_token: w.agent.token, account_id: other.accountId });
    });

    expect(blocking).toEqual([]);
    expect(sockets.map((c) => c.frames[0])).toEqual(Array(4).fill({ type: "welcome" }));
    expect(replies).toEqual([
      ["confirm_subscription", true],
      ["confirm_subscription", true],
      ["reject_subscription", true],
      ["confirm_subscription", true],
      ["confirm_subscription", true],
      ["confirm_subscription", true],
      ["reject_subscription", true],
      ["reject_subscription", true],
      ["reject_subscription", true],
      ["reject_subscription", true],
      ["reject_subscription", true],
    ]);
    expect(w.h.deps.realtime.stats()).toEqual({ connections: 4, subscriptions: 5 });
    expect(sockets.map((c) => c.closeEvent)).toEqual([null, null, null, null]);
  });
});

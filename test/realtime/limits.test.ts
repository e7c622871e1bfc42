// Abuse limits of the realtime socket: a socket that keeps asking for subscriptions it may not
// have is closed, and a replay from further back than PARLEY_REPLAY_MAX_EVENTS answers resync
// (on the socket and over HTTP) instead of streaming the history.
import { afterEach, describe, expect, test } from "bun:test";
import { CableClient, listen, type Served } from "../helpers/cable.ts";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";

let served: Served | null = null;
afterEach(async () => {
  await served?.stop();
  served = null;
});

describe("realtime limits", () => {
  test("the 20th rejected subscribe closes the socket (1008); 19 do not", async () => {
    const w = await world();
    served = listen(w.h);
    const client = await CableClient.connect(served.url());
    for (let i = 1; i <= 19; i++) {
      const { reply } = await client.subscribe({ pubsub_token: `forged-${i}` });
      expect(reply.type).toBe("reject_subscription");
    }
    expect(client.closeEvent).toBeNull();
    client.ws.send(
      JSON.stringify({
        command: "subscribe",
        identifier: JSON.stringify({ channel: "RoomChannel", pubsub_token: "forged-20" }),
      }),
    );
    expect(await client.closed()).toEqual({ code: 1008, reason: "too many rejected subscriptions" });
  });

  test("a replay deeper than PARLEY_REPLAY_MAX_EVENTS is a resync; one within it is served", async () => {
    const w = await world({ env: { PARLEY_REPLAY_MAX_EVENTS: "10" } });
    served = listen(w.h);
    const start = w.h.lastEventId();
    for (let i = 0; i < 12; i++) await newConversation(w); // a conversation_created each, at least
    const head = w.h.lastEventId();
    expect(head - start).toBeGreaterThan(10);

    const deep = await CableClient.connect(served.url(`/cable?api_access_token=${w.a.adminToken}`));
    await deep.subscribe({ account_id: w.a.accountId, since: start });
    const resync = await deep.until((f) => f.message?.event === "resync");
    expect(resync.message.data).toEqual({ oldest_seq: 1, latest_seq: head });
    expect(deep.events()).toEqual([]);

    const near = await CableClient.connect(served.url(`/cable?api_access_token=${w.a.adminToken}`));
    await near.subscribe({ account_id: w.a.accountId, since: head - 4 });
    expect((await near.eventCount(1)).length).toBeGreaterThan(0);
    expect(near.messages("resync")).toEqual([]);

    const http = await w.h.request("GET", `${w.base}/events?since=${start}`, { token: w.a.adminToken });
    expect([http.status, http.body.data]).toEqual([410, { oldest_seq: 1, latest_seq: head }]);
  });
});

describe("pubsub_token rotation", () => {
  test("a new password gives a new pubsub_token and closes the sockets holding the old one", async () => {
    const w = await world();
    served = listen(w.h);
    const old = (await w.h.request("GET", "/api/v1/profile", { token: w.agent.token })).body.pubsub_token;
    const socket = await CableClient.connect(served.url());
    expect((await socket.subscribe({ pubsub_token: old, account_id: w.a.accountId })).reply.type).toBe(
      "confirm_subscription",
    );
    const other = await CableClient.connect(served.url(`/cable?api_access_token=${w.a.adminToken}`));
    await other.subscribe({ account_id: w.a.accountId });

    await w.h.deps.services.passwords.set(w.agent.userId, "a brand new password");
    // A write answers before its group commits (responses wait for it: src/http/commit-wait.ts), and on
    // PostgreSQL the check reads committed rows on the read pool: the next ping comes after the commit.
    await w.h.deps.commits.settled();
    w.h.deps.realtime.checkCredentials(); // what every ping does
    expect(await socket.closed()).toEqual({
      code: 1008,
      reason: "credentials changed: connect again with the new token",
    });
    expect(other.closeEvent).toBeNull(); // the administrator's socket stays

    const renewed = (await w.h.request("GET", "/api/v1/profile", { token: w.agent.token })).body.pubsub_token;
    expect(renewed).not.toBe(old);
    const again = await CableClient.connect(served.url());
    expect((await again.subscribe({ pubsub_token: old, account_id: w.a.accountId })).reply.type).toBe(
      "reject_subscription",
    );
    expect((await again.subscribe({ pubsub_token: renewed, account_id: w.a.accountId })).reply.type).toBe(
      "confirm_subscription",
    );
  });
});

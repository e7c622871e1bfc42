// The live stream on PostgreSQL reads on the read pool, never through the synchronous bridge in
// place: the newest event after each commit, the new events, who may see them (the account's
// members, an inbox's members) and their payloads, and the members a presence.update lists when a
// client asks for one.
// Each viewer still gets exactly what it may see, in order. PostgreSQL only.
import { afterEach, describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { CableClient } from "../helpers/cable.ts";
import { send } from "../helpers/conversation-fixtures.ts";
import { quiet, room, type Room } from "../helpers/realtime-fixtures.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

let r: Room | null = null;
afterEach(async () => {
  await r?.served.stop();
  r = null;
});

/** The contents of the message.created frames a client holds, in order. */
const created = (c: CableClient) => c.messages("message.created").map((m) => m.data.content);

describe.skipIf(TEST_ENGINE !== "postgres")("the live stream on PostgreSQL", () => {
  test("events, their audience and payloads, and presence: nothing in place, each viewer its own", async () => {
    const w = await room();
    r = w;
    // The administrator first: an event the first viewer may see is read ahead for the others too.
    const admin = await CableClient.connect(w.served.url(`/cable?api_access_token=${w.a.adminToken}`));
    await admin.subscribe({ account_id: w.a.accountId });
    const agent = await CableClient.connect(w.served.url());
    const agentRoom = await agent.subscribe({ pubsub_token: w.agentPubsub, account_id: w.a.accountId });
    const carla = await CableClient.connect(w.served.url());
    await carla.subscribe({ pubsub_token: w.carlaToken });
    await quiet(w, agent, admin, carla);

    const blocking = await blockingDuring(
      async () => {
        expect((await send(w, w.carlaA, { content: "to Carla in A" })).status).toBe(200);
        expect((await send(w, w.carlaB, { content: "to Carla in B" })).status).toBe(200);
        expect((await send(w, w.carlaA, { content: "a note", private: true })).status).toBe(200);
        expect((await send(w, w.danA, { content: "to Dan in A" })).status).toBe(200);
        await quiet(w, agent, admin, carla);
        agent.perform(agentRoom.identifier, { action: "update_presence" });
        await agent.sync(); // the answer comes before the round trip's
      },
      { all: true },
    ); // the newest event after each commit included

    expect(blocking).toEqual([]);
    // The agent is a member of inbox A only; the administrator sees every inbox.
    expect(created(agent)).toEqual(["to Carla in A", "a note", "to Dan in A"]);
    expect(created(admin)).toEqual(["to Carla in A", "to Carla in B", "a note", "to Dan in A"]);
    // Carla's widget: her conversation in A, no private note, nothing of Dan's.
    expect(created(carla)).toEqual(["to Carla in A"]);
    expect(agent.messages("presence.update").at(-1)!.data).toEqual({
      account_id: w.a.accountId,
      users: { [w.a.adminId]: "online", [w.agent.userId]: "online" },
      contacts: { [w.contactId]: "online" },
    });
  });

  test("subscribing with since and without: replayed on the pool while messages arrive, none missed or doubled", async () => {
    const w = await room();
    r = w;
    expect((await send(w, w.carlaA, { content: "before 1" })).status).toBe(200);
    await w.h.deps.bus.drain();
    const since = w.h.lastEventId(); // the replay has the next two to send
    for (const n of [2, 3]) expect((await send(w, w.carlaA, { content: `before ${n}` })).status).toBe(200);
    const watcher = await CableClient.connect(w.served.url());
    await watcher.subscribe({ pubsub_token: w.agentPubsub, account_id: w.a.accountId }); // the live stream runs
    const replayer = await CableClient.connect(w.served.url());
    const joiner = await CableClient.connect(w.served.url());
    const identity = { pubsub_token: w.agentPubsub, account_id: w.a.accountId };

    const blocking = await blockingDuring(
      async () => {
        // Messages written while the replay reads its pages on the pool and switches to live.
        const during = [4, 5, 6].map((n) => send(w, w.carlaA, { content: `during ${n}` }));
        const replaying = replayer.subscribe({ ...identity, since });
        expect((await Promise.all(during)).map((x) => x.status)).toEqual([200, 200, 200]);
        expect((await replaying).reply.type).toBe("confirm_subscription");
        expect((await joiner.subscribe(identity)).reply.type).toBe("confirm_subscription");
        await quiet(w, watcher, replayer, joiner);
        expect((await send(w, w.carlaA, { content: "after" })).status).toBe(200);
        await quiet(w, watcher, replayer, joiner);
      },
      { all: true },
    );

    expect(blocking).toEqual([]);
    const seqs = (c: CableClient) => c.events().map((e) => e.seq);
    for (const c of [watcher, replayer, joiner]) expect(new Set(seqs(c)).size).toBe(seqs(c).length);
    for (const c of [watcher, replayer, joiner]) expect(seqs(c)).toEqual([...seqs(c)].sort((a, b) => a - b));
    // The three sent at once commit in any order; each socket has them in the order of their seqs (above).
    const during = (c: CableClient) =>
      created(c)
        .filter((x) => x.startsWith("during"))
        .sort();
    expect(during(watcher)).toEqual(["during 4", "during 5", "during 6"]);
    expect(created(watcher).at(-1)).toBe("after");
    expect(created(watcher)).toHaveLength(4);
    // The replay from `since`: what was written after it before, then every one after.
    expect(created(replayer).slice(0, 2)).toEqual(["before 2", "before 3"]);
    expect(during(replayer)).toEqual(["during 4", "during 5", "during 6"]);
    expect(created(replayer).at(-1)).toBe("after");
    expect(created(replayer)).toHaveLength(6);
    // Live from the moment it subscribed: at least the last.
    expect(created(joiner).at(-1)).toBe("after");
  });
});

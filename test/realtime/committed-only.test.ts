// Only committed events reach sockets, replays and the head: an event still inside an open
// transaction (a group commit gathering writes) is held back until its commit, and one whose
// transaction rolls back is never shown, although a rollback hands its id out again.
import { afterEach, describe, expect, test } from "bun:test";
import { CableClient } from "../helpers/cable.ts";
import { room, type Room } from "../helpers/realtime-fixtures.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

let r: Room | null = null;
afterEach(async () => {
  await r?.served.stop();
  r = null;
});

const internalId = (r: Room, displayId: number) =>
  (
    r.h.deps.db
      .query("SELECT id FROM conversations WHERE account_id = ? AND display_id = ?")
      .get(r.a.accountId, displayId) as { id: number }
  ).id;

/** An event the agent may see (their inbox's conversation), recorded in the caller's transaction. */
function record(r: Room, marker: string) {
  return r.h.deps.outbox.record({
    kind: "conversation_updated",
    accountId: r.a.accountId,
    actor: { type: "system", id: null },
    inboxId: r.inboxId,
    conversationId: internalId(r, r.carlaA),
    payload: { id: r.carlaA, marker },
  });
}

async function agentSocket(r: Room): Promise<CableClient> {
  const agent = await CableClient.connect(r.served.url());
  await agent.subscribe({ pubsub_token: r.agentPubsub, account_id: r.a.accountId, user_id: r.agent.userId });
  return agent;
}

describe("only committed events are streamed", () => {
  test("an event inside an open group commit waits for the commit", async () => {
    r = await room();
    const agent = await agentSocket(r);
    await r.h.deps.bus.drain(); // the listeners' awaited writes (PostgreSQL) are over before writing in place
    const hub = r.h.deps.realtime;
    const feed = hub.feed;
    const headBefore = feed.head();
    const held = r.h.deps.writeTx.now(() => record(r!, "held")); // the group commits in a later setImmediate
    expect(r.h.deps.db.inTransaction).toBe(true);
    hub.fanOut(); // a fan-out while the group is still open
    expect(feed.head()).toBe(headBefore);
    expect(feed.page({ kind: "user", accountId: r.a.accountId, userId: r.agent.userId }, headBefore, 50).items).toEqual(
      [],
    );
    await r.h.deps.commits.settled();
    const frame = await agent.until((f) => f.message?.data?.marker === "held");
    expect(frame.message.seq).toBe(held.id);
    expect(feed.head()).toBe(held.id);
  });

  test("an event whose transaction rolls back is never sent, and its reused id carries the real event", async () => {
    r = await room();
    const agent = await agentSocket(r);
    await r.h.deps.bus.drain(); // as above
    const hub = r.h.deps.realtime;
    let lostId = 0;
    expect(() =>
      r!.h.deps.db.transaction(() => {
        lostId = record(r!, "lost").id;
        hub.fanOut();
        throw new Error("the change failed");
      })(),
    ).toThrow("the change failed");
    const kept = r.h.deps.writeTx.now(() => record(r!, "kept"));
    // SQLite hands the rolled-back id out again; a PostgreSQL identity never does.
    expect(kept.id).toBe(TEST_ENGINE === "sqlite" ? lostId : lostId + 1);
    await r.h.deps.commits.settled();
    await agent.until((f) => f.message?.data?.marker === "kept");
    expect(
      agent
        .messages()
        .filter((m) => m.data?.marker)
        .map((m) => [m.seq, m.data.marker]),
    ).toEqual([[kept.id, "kept"]]);
  });
});

// Reconnecting with `since`: the missed events, in order, then live ones, with nothing lost or
// repeated at the switch — also while writes keep coming during the replay — and "resync" when
// the client asks for events that are no longer (or never were) here.
import { afterEach, describe, expect, test } from "bun:test";
import { pruneEvents } from "../../src/jobs/prune-events.job.ts";
import { CableClient } from "../helpers/cable.ts";
import { send } from "../helpers/conversation-fixtures.ts";
import { quiet, room, type Room } from "../helpers/realtime-fixtures.ts";

let r: Room | null = null;
afterEach(async () => {
  await r?.served.stop();
  r = null;
});

const seqs = (c: CableClient) => c.events().map((e) => e.seq);
const adminUrl = (room: Room) => room.served.url(`/cable?api_access_token=${room.a.adminToken}`);

/** The seqs an administrator may see after `after`: every streamed, non-typing event of the account. */
function streamable(room: Room, after: number): number[] {
  const streamed = [
    "message_created",
    "message_updated",
    "conversation_created",
    "conversation_updated",
    "conversation_status_changed",
    "assignee_changed",
    "team_changed",
    "contact_created",
    "contact_updated",
    "contact_deleted",
  ];
  return room.h
    .events(after)
    .filter((e) => streamed.includes(e.kind))
    .map((e) => e.id);
}

describe("replay with since", () => {
  test("disconnect, miss events, reconnect with since: exactly the missed ones, then live ones", async () => {
    r = await room();
    const first = await CableClient.connect(adminUrl(r));
    await first.subscribe({ account_id: r.a.accountId });
    await send(r, r.carlaA, { content: "seen live" });
    const [seen] = await first.eventCount(1);
    first.close();
    await first.closed();

    await send(r, r.carlaA, { content: "missed 1" });
    await send(r, r.carlaA, { content: "missed note", private: true });
    await send(r, r.danA, { content: "missed 2" });
    const missed = streamable(r, seen!.seq);

    const again = await CableClient.connect(adminUrl(r));
    // Chatwoot sends account_id as a number; since may come as a number or a string.
    const sub = await again.subscribe({ account_id: r.a.accountId, since: String(seen!.seq) });
    expect(sub.reply.type).toBe("confirm_subscription");
    await again.eventCount(missed.length);
    expect(seqs(again)).toEqual(missed);
    expect(
      again
        .events()
        .filter((e) => e.event === "message.created")
        .map((e) => e.data.content),
    ).toEqual(["seen live", "missed 1", "missed note", "missed 2"].slice(1));

    await send(r, r.danA, { content: "live after" });
    const all = streamable(r, seen!.seq);
    await again.eventCount(all.length);
    await quiet(r, again);
    expect(seqs(again)).toEqual(all);
  });

  test("writes during a long replay (small pages): no gap, no duplicate at the switch to live", async () => {
    r = await room();
    r.h.deps.realtime.limits.replayPage = 3;
    const since = r.h.lastEventId();
    for (let i = 0; i < 15; i++) await send(r, r.carlaA, { content: `backlog ${i}` });
    const client = await CableClient.connect(adminUrl(r));
    const subscribed = client.subscribe({ account_id: r.a.accountId, since });
    // Keep writing while the replay runs.
    for (let i = 0; i < 15; i++) {
      await send(r, i % 2 ? r.danA : r.carlaA, { content: `during ${i}` });
      await new Promise((resolve) => setImmediate(resolve)); // the replay's next page may go out in between
    }
    await subscribed;
    const expected = streamable(r, since);
    await client.eventCount(expected.length, 5000);
    await quiet(r, client);
    expect(seqs(client)).toEqual(expected);
  });

  test("an agent's replay applies the same visibility as the live stream", async () => {
    r = await room();
    const since = r.h.lastEventId();
    await send(r, r.carlaA, { content: "inbox A" });
    await send(r, r.carlaB, { content: "inbox B" });
    await send(r, r.carlaA, { content: "note", private: true });
    const agent = await CableClient.connect(r.served.url(`/cable?api_access_token=${r.agent.token}`));
    await agent.subscribe({ account_id: r.a.accountId, since });
    await agent.eventCount(3);
    await quiet(r, agent);
    expect(agent.events().map((e) => [e.seq - since, e.event, e.data.content ?? null])).toEqual([
      [1, "message.created", "inbox A"],
      [2, "conversation.updated", null],
      [5, "message.created", "note"],
    ]);
  });

  test("a contact's replay: own public messages only", async () => {
    r = await room();
    const since = r.h.lastEventId();
    await send(r, r.carlaA, { content: "to carla" });
    await send(r, r.carlaA, { content: "note", private: true });
    await send(r, r.danA, { content: "to dan" });
    const carla = await CableClient.connect(r.served.url());
    await carla.subscribe({ pubsub_token: r.carlaToken, since });
    await carla.eventCount(2);
    await quiet(r, carla);
    expect(carla.events().map((e) => [e.seq - since, e.event, e.data.content ?? null])).toEqual([
      [1, "message.created", "to carla"],
      [2, "conversation.updated", null],
    ]);
  });

  test("typing is not replayed (it is stale by then) but arrives live", async () => {
    r = await room();
    const since = r.h.lastEventId();
    const typing = (status: string) =>
      r!.h.request("POST", `${r!.base}/conversations/${r!.carlaA}/toggle_typing_status`, {
        token: r!.agent.token,
        body: { typing_status: status },
      });
    expect((await typing("on")).status).toBe(200);
    await send(r, r.carlaA, { content: "after typing" });
    const admin = await CableClient.connect(adminUrl(r));
    await admin.subscribe({ account_id: r.a.accountId, since });
    await admin.eventCount(2);
    expect(admin.events().map((e) => e.event)).toEqual(["message.created", "conversation.updated"]);
    await typing("off");
    await admin.eventCount(3);
    expect(admin.events()[2]!.event).toBe("conversation.typing_off");
  });
});

describe("resync", () => {
  test("since older than what is kept: a resync message with the kept range, then live events", async () => {
    r = await room();
    const old = r.h.lastEventId();
    await send(r, r.carlaA, { content: "old" });
    r.h.clock.advance(8 * 24 * 3600 * 1000);
    await send(r, r.carlaA, { content: "recent" });
    await r.h.deps.bus.drain(); // durable listeners catch up first, as they do in the server
    const pruned = await pruneEvents(
      { events: r.h.deps.repos.events, writeTx: r.h.deps.writeTx, clock: r.h.clock, logger: r.h.deps.logger },
      7,
    );
    expect(pruned).toBeGreaterThan(0);
    const { oldest, latest } = r.h.deps.repos.events.bounds();
    expect(oldest).toBeGreaterThan(old + 1);

    const client = await CableClient.connect(adminUrl(r));
    await client.subscribe({ account_id: r.a.accountId, since: old });
    const resync = await client.until((f) => f.message?.event === "resync");
    expect(resync.message).toEqual({ event: "resync", data: { oldest_seq: oldest, latest_seq: latest } });
    await send(r, r.danA, { content: "live" });
    await client.eventCount(2);
    expect(client.events().map((e) => e.seq)).toEqual(streamable(r, latest!));
    // The boundary itself is still served: since = oldest - 1 replays from the oldest kept event.
    const edge = await CableClient.connect(adminUrl(r));
    await edge.subscribe({ account_id: r.a.accountId, since: oldest! - 1 });
    await edge.eventCount(streamable(r, oldest! - 1).length);
    expect(edge.messages("resync")).toEqual([]);
  });

  test("since ahead of every recorded event (another database's numbers): resync", async () => {
    r = await room();
    const latest = r.h.lastEventId();
    const client = await CableClient.connect(adminUrl(r));
    await client.subscribe({ account_id: r.a.accountId, since: latest + 100 });
    const resync = await client.until((f) => f.message?.event === "resync");
    expect(resync.message.data).toEqual({ oldest_seq: 1, latest_seq: latest });
  });
});

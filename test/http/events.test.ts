// GET /api/v1/accounts/:account_id/events — HTTP catch-up for the realtime stream: same events and
// visibility as /cable, paged by seq; 410 with the resync envelope when `since` is not kept.
import { describe, expect, test } from "bun:test";
import { pruneEvents } from "../../src/jobs/prune-events.job.ts";
import { makeInbox } from "../helpers/directory-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { newConversation, send, world, type World } from "../helpers/conversation-fixtures.ts";

const NOW = 1767603600;

async function setup() {
  const w = await world();
  const inboxB = makeInbox(w.h, w.a.accountId, { name: "Other" });
  const convA = (await newConversation(w)).id;
  const convB = (await newConversation(w, { inbox_id: inboxB })).id;
  const since = w.h.lastEventId();
  await send(w, convA, { content: "a1" }); // +1 message, +2 conversation.updated (first reply)
  await send(w, convB, { content: "b1" }); // +3, +4
  await send(w, convA, { content: "note", private: true }); // +5
  return { w, since, convA, convB };
}

const page = (w: World, query: string, token = w.a.adminToken) =>
  w.h.request("GET", `${w.base}/events${query}`, { token });

describe("GET /events", () => {
  test("pages of {seq, event, data, created_at} with next_since and has_more", async () => {
    const { w, since, convA } = await setup();
    const first = await page(w, `?since=${since}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ next_since: since + 2, has_more: true });
    expect(first.body.payload.map((e: { seq: number; event: string }) => [e.seq - since, e.event])).toEqual([
      [1, "message.created"],
      [2, "conversation.updated"],
    ]);
    const [message] = first.body.payload;
    expect(message).toEqual({
      seq: since + 1,
      event: "message.created",
      created_at: NOW,
      data: expect.objectContaining({ content: "a1", conversation_id: convA, message_type: 1, private: false }),
    });
    const second = await page(w, `?since=${first.body.meta.next_since}&limit=2`);
    expect(second.body.payload.map((e: { seq: number }) => e.seq - since)).toEqual([3, 4]);
    expect(second.body.meta).toEqual({ next_since: since + 4, has_more: true });
    const last = await page(w, `?since=${second.body.meta.next_since}&limit=2`);
    expect(
      last.body.payload.map((e: { seq: number; data: { content: string } }) => [e.seq - since, e.data.content]),
    ).toEqual([[5, "note"]]);
    expect(last.body.meta).toEqual({ next_since: since + 5, has_more: false });
    const empty = await page(w, `?since=${since + 5}`);
    expect(empty.body).toEqual({ payload: [], meta: { next_since: since + 5, has_more: false } });
  });

  test("an agent sees only their inboxes' conversations (private notes included) and the account's contact events", async () => {
    const { w, since } = await setup();
    await w.h.request("PATCH", `${w.base}/contacts/${w.contactId}`, {
      token: w.a.adminToken,
      body: { name: "Carla C." },
    });
    const r = await page(w, `?since=${since}`, w.agent.token);
    expect(r.body.payload.map((e: { seq: number; event: string }) => [e.seq - since, e.event])).toEqual([
      [1, "message.created"],
      [2, "conversation.updated"],
      [5, "message.created"],
      [6, "contact.updated"],
    ]);
    // Pages skip what the agent may not see but still move on: next_since is the last seq looked at.
    const one = await page(w, `?since=${since + 2}&limit=1`, w.agent.token);
    expect(one.body.payload.map((e: { seq: number }) => e.seq - since)).toEqual([5]);
    expect(one.body.meta).toEqual({ next_since: since + 5, has_more: true });
    const outsider = await page(w, `?since=${since}`, w.outsider.token);
    expect(outsider.body.payload.map((e: { event: string }) => e.event)).toEqual(["contact.updated"]);
  });

  test("since older than what is kept, or ahead of the newest: 410 with the error envelope and the resync data", async () => {
    const { w, since } = await setup();
    w.h.clock.advance(8 * 24 * 3600 * 1000);
    await w.h.request("PATCH", `${w.base}/contacts/${w.contactId}`, {
      token: w.a.adminToken,
      body: { name: "Carla C." },
    });
    await w.h.deps.bus.drain(); // durable listeners catch up first, as they do in the server
    await pruneEvents(
      { events: w.h.deps.repos.events, writeTx: w.h.deps.writeTx, clock: w.h.clock, logger: w.h.deps.logger },
      7,
    );
    const latest = w.h.lastEventId();
    expect(w.h.deps.repos.events.bounds()).toEqual({ oldest: latest, latest });
    const gone = await page(w, `?since=${since}`);
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual({
      description: "Resync required",
      error: "Resync required",
      errors: [
        {
          field: "since",
          message: `events after this seq are not available (kept: ${latest} to ${latest}); reload and continue from latest_seq`,
          code: "resync",
        },
      ],
      event: "resync",
      data: { oldest_seq: latest, latest_seq: latest },
    });
    expect((await page(w, `?since=${latest - 1}`)).body.payload.map((e: { seq: number }) => e.seq)).toEqual([latest]);
    expect((await page(w, `?since=${latest + 1}`)).status).toBe(410);
  });

  test("bad since or limit: 422 per field", async () => {
    const { w } = await setup();
    for (const [query, field] of [
      ["?since=abc", "since"],
      ["?since=-1", "since"],
      ["?limit=0", "limit"],
      ["?limit=501", "limit"],
      ["?limit=2.5", "limit"],
    ] as const) {
      const r = await page(w, query);
      expect(r.status).toBe(422);
      expect(r.body.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
        [field, "invalid"],
      ]);
    }
  });

  test("authorization: no token 401, another account's token 401, unknown account 404; accounts never mix", async () => {
    const { w, since } = await setup();
    const other = await makeAccount(w.h, "Other");
    expect((await w.h.request("GET", `${w.base}/events`)).status).toBe(401);
    expect((await page(w, "", other.adminToken)).status).toBe(401);
    expect((await w.h.request("GET", "/api/v1/accounts/999/events", { token: w.a.adminToken })).status).toBe(404);
    await w.h.request("POST", `/api/v1/accounts/${other.accountId}/contacts`, {
      token: other.adminToken,
      body: { name: "Olga", email: "olga@example.com" },
    });
    const mine = await w.h.request("GET", `/api/v1/accounts/${other.accountId}/events?since=0`, {
      token: other.adminToken,
    });
    expect(mine.status).toBe(200);
    expect(
      mine.body.payload.map((e: { seq: number; event: string; data: { name: string } }) => [
        e.seq,
        e.event,
        e.data.name,
      ]),
    ).toEqual([[since + 6, "contact.created", "Olga"]]);
  });
});

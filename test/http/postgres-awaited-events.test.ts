// The realtime stream's HTTP catch-up and GET /api on PostgreSQL: GET /events reads its resync
// check, its pages of events, the visibility checks and what the renderer needs (the message rows,
// their senders) on the read pool, sending nothing through the synchronous bridge in place; GET /api
// asks the database on the read pool too. The answers are those of the in-place reads: the same
// seqs, names, payloads, next_since and has_more, the same 410 and 422, and an agent still sees
// only their inboxes' conversations. PostgreSQL only.
import { describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { makeInbox } from "../helpers/directory-fixtures.ts";
import { newConversation, send, type World, world } from "../helpers/conversation-fixtures.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

/** A GET as an app sends it, straight to the app. */
async function read(w: World, path: string, token?: string) {
  const headers: Record<string, string> = token ? { api_access_token: token } : {};
  const res = await w.h.app.handle(new Request(`http://localhost${path}`, { headers }));
  return { status: res.status, body: (await res.json()) as any };
}

interface Item {
  seq: number;
  event: string;
  data: Record<string, any>;
}

/** What a page shows, seqs and next_since counted from `since`: a message as its conversation, content and sender. */
function shown(body: { payload: Item[]; meta: { next_since: number; has_more: boolean } }, since: number) {
  const about = ({ event, data }: Item) =>
    event.startsWith("message.")
      ? [data.conversation_id, data.content, data.sender.name]
      : event.startsWith("contact.")
        ? data.name
        : data.id;
  return {
    items: body.payload.map((e) => [e.seq - since, e.event, about(e)]),
    next: body.meta.next_since - since,
    more: body.meta.has_more,
  };
}

describe.skipIf(TEST_ENGINE !== "postgres")("the events catch-up on PostgreSQL waits on nothing in place", () => {
  test("an agent's and an administrator's pages, a resync, a bad since and GET /api: all awaited", async () => {
    const w = await world();
    const other = makeInbox(w.h, w.a.accountId, { name: "Other" });
    const since = w.h.lastEventId();
    const mine = (await newConversation(w)).id;
    const theirs = (await newConversation(w, { inbox_id: other })).id;
    expect((await send(w, mine, { content: "Hello Carla" })).status).toBe(200);
    expect((await send(w, theirs, { content: "Elsewhere" })).status).toBe(200);
    expect((await send(w, mine, { content: "Still there?", message_type: "incoming" })).status).toBe(200);
    expect((await send(w, mine, { content: "a note", private: true }, w.agent.token)).status).toBe(200);
    w.h.deps.commits.flush();
    await w.h.deps.bus.drain();
    await w.h.deps.bus.drain();
    const { oldest, latest } = w.h.deps.repos.events.bounds();
    const events = (query: string, token = w.a.adminToken) => read(w, `${w.base}/events${query}`, token);
    const page = async (from: number, limit: number, token?: string) =>
      shown((await events(`?since=${since + from}&limit=${limit}`, token)).body, since);
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      answers.push(await page(0, 3, w.agent.token));
      answers.push(await page(4, 100, w.agent.token));
      answers.push(await page(0, 4));
      answers.push(await page(4, 4));
      answers.push(await page(8, 4));
      answers.push(await page(0, 100, w.outsider.token));
      const ahead = await events(`?since=${latest! + 1}`);
      answers.push([ahead.status, ahead.body.event, ahead.body.data]);
      for (const query of ["?since=abc&limit=2", "?since=1&limit=501"]) {
        const bad = await events(query);
        answers.push([bad.status, bad.body.errors.map((e: { field: string; code: string }) => [e.field, e.code])]);
      }
      const api = await read(w, "/api");
      answers.push([api.status, api.body.queue_services, api.body.data_services]);
    });
    const hello = [mine, "Hello Carla", "Admin"];
    const again = [mine, "Still there?", "Carla Customer"];
    expect(answers).toEqual([
      {
        items: [
          [1, "conversation.created", mine],
          [3, "message.created", hello],
          [4, "conversation.updated", mine],
        ],
        next: 4,
        more: true,
      },
      {
        items: [
          [7, "message.created", again],
          [8, "conversation.updated", mine],
          [9, "contact.updated", "Carla Customer"],
          [10, "message.created", [mine, "a note", "Ann Agent"]],
        ],
        next: 10,
        more: false,
      },
      {
        items: [
          [1, "conversation.created", mine],
          [2, "conversation.created", theirs],
          [3, "message.created", hello],
          [4, "conversation.updated", mine],
        ],
        next: 4,
        more: true,
      },
      {
        items: [
          [5, "message.created", [theirs, "Elsewhere", "Admin"]],
          [6, "conversation.updated", theirs],
          [7, "message.created", again],
          [8, "conversation.updated", mine],
        ],
        next: 8,
        more: true,
      },
      {
        items: [
          [9, "contact.updated", "Carla Customer"],
          [10, "message.created", [mine, "a note", "Ann Agent"]],
        ],
        next: 10,
        more: false,
      },
      { items: [[9, "contact.updated", "Carla Customer"]], next: 10, more: false },
      [410, "resync", { oldest_seq: oldest, latest_seq: latest }],
      [422, [["since", "invalid"]]],
      [422, [["limit", "invalid"]]],
      [200, "ok", "ok"],
    ]);
    expect(latest! - since).toBe(10);
    expect(blocking).toEqual([]);
  });
});

// GET /conversations/:id/messages (docs/compatibility.md #4–#6): page selections, meta
// and the records' senders.
import { describe, expect, test } from "bun:test";
import { makeAccount } from "../helpers/factories.ts";
import { newConversation, world, type World } from "../helpers/conversation-fixtures.ts";

/** A conversation with `n` messages inserted directly (alternating incoming/outgoing); returns their ids. */
function seed(w: World, conversationDisplayId: number, n: number): number[] {
  const conv = w.h.deps.db
    .query("SELECT id FROM conversations WHERE display_id = ? AND account_id = ?")
    .get(conversationDisplayId, w.a.accountId) as { id: number };
  const ids: number[] = [];
  const insert = w.h.deps.db.query(
    `INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, sender_type, sender_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 1767603600, 1767603600)`,
  );
  for (let i = 0; i < n; i++) {
    const incoming = i % 2 === 0;
    ids.push(
      Number(
        insert.run(
          w.a.accountId,
          w.inboxId,
          conv.id,
          incoming ? 0 : 1,
          `m${i}`,
          incoming ? "Contact" : "User",
          incoming ? w.contactId : w.a.adminId,
        ).lastInsertRowid,
      ),
    );
  }
  // Outside a writeTx these rows may have joined a write group that a listener opened; the page is
  // read on PostgreSQL's read pool (src/db/reads.ts), which sees committed rows only.
  w.h.deps.commits.flush();
  return ids;
}

const get = (w: World, id: number, qs = "", token = w.a.adminToken) =>
  w.h.request("GET", `${w.base}/conversations/${id}/messages${qs}`, { token });
const idsOf = (r: { body: { payload: { id: number }[] } }) => r.body.payload.map((m) => m.id);

describe("GET messages: page selections", () => {
  test("neither: the latest 20, ascending; before: 20 older; after: 100 newer; both: the range, lower bound inclusive", async () => {
    const w = await world();
    const c = await newConversation(w);
    const ids = seed(w, c.id, 1200);
    expect(idsOf(await get(w, c.id))).toEqual(ids.slice(-20));
    expect(idsOf(await get(w, c.id, `?before=${ids[500]}`))).toEqual(ids.slice(480, 500));
    expect(idsOf(await get(w, c.id, `?after=${ids[500]}`))).toEqual(ids.slice(501, 601));
    expect(idsOf(await get(w, c.id, `?after=${ids[100]}&before=${ids[150]}`))).toEqual(ids.slice(100, 150));
    const wide = await get(w, c.id, `?after=${ids[0]}&before=${ids[1199]! + 1}`);
    expect(idsOf(wide)).toEqual(ids.slice(0, 1000));
    expect(idsOf(await get(w, c.id, `?before=${ids[3]}`))).toEqual(ids.slice(0, 3));
    expect(idsOf(await get(w, c.id, `?after=${ids[1199]}`))).toEqual([]);
  });

  test("bad bounds are 422", async () => {
    const w = await world();
    const c = await newConversation(w);
    for (const qs of ["?before=abc", "?after=-1", "?after=1.5"]) {
      const r = await get(w, c.id, qs);
      expect(r.status).toBe(422);
      expect(r.body.errors[0]).toMatchObject({ code: "invalid" });
    }
  });
});

describe("GET messages: meta and records", () => {
  test("meta is the spec's Conversation metadata: contact as {payload: [Contact]}, assignee as Agent, ISO last-seen", async () => {
    const w = await world();
    const c = await newConversation(w, {
      assignee_id: w.agent.userId,
      additional_attributes: { browser: "Firefox" },
      source_id: "s-1",
    });
    await w.h.request("POST", `${w.base}/conversations/${c.id}/labels`, {
      token: w.a.adminToken,
      body: { labels: ["vip"] },
    });
    await w.h.request("POST", `${w.base}/conversations/${c.id}/update_last_seen`, { token: w.agent.token });
    const r = await get(w, c.id);
    expect(r.status).toBe(200);
    expect(r.body.meta).toEqual({
      labels: ["vip"],
      additional_attributes: { browser: "Firefox" },
      contact: {
        payload: [
          {
            additional_attributes: {},
            availability_status: "offline",
            email: "carla@example.com",
            id: w.contactId,
            name: "Carla Customer",
            phone_number: null,
            blocked: false,
            identifier: null,
            thumbnail: "",
            custom_attributes: {},
            created_at: 1767603600,
            contact_inboxes: [
              {
                source_id: "s-1",
                inbox: {
                  id: w.inboxId,
                  avatar_url: "",
                  channel_id: w.inboxId,
                  name: "API",
                  channel_type: "Channel::Api",
                  provider: null,
                },
              },
            ],
          },
        ],
      },
      assignee: expect.objectContaining({
        id: w.agent.userId,
        name: "Ann Agent",
        role: "agent",
        account_id: w.a.accountId,
      }),
      agent_last_seen_at: "2026-01-05T09:00:00.000Z",
      assignee_last_seen_at: "2026-01-05T09:00:00.000Z",
    });
    const unassigned = await newConversation(w);
    const m = await get(w, unassigned.id);
    expect(m.body.meta).not.toHaveProperty("assignee");
    expect(m.body.meta.agent_last_seen_at).toBeNull();
  });

  test("includes private notes and activity messages, each with its sender (none for activity)", async () => {
    const w = await world();
    const c = await newConversation(w);
    await w.h.request("POST", `${w.base}/conversations/${c.id}/messages`, {
      token: w.a.adminToken,
      body: { content: "note", private: true },
    });
    await w.h.request("POST", `${w.base}/conversations/${c.id}/messages`, {
      token: w.a.adminToken,
      body: { content: "hi", message_type: "incoming" },
    });
    await w.h.request("POST", `${w.base}/conversations/${c.id}/toggle_status`, { token: w.a.adminToken });
    const r = await get(w, c.id);
    expect(
      r.body.payload.map(
        (m: { content: string; message_type: number; private: boolean; sender?: { type: string } }) => [
          m.content,
          m.message_type,
          m.private,
          m.sender?.type ?? null,
        ],
      ),
    ).toEqual([
      ["note", 1, true, "user"],
      ["hi", 0, false, "contact"],
      ["Conversation was marked resolved by Admin", 2, false, null],
    ]);
    expect(r.body.payload[2]).not.toHaveProperty("sender");
    expect(r.body.payload[2]).toMatchObject({ sender_type: null, sender_id: null, conversation_id: c.id });
  });

  test("access: outsider 403, other account 404, unknown conversation 404", async () => {
    const w = await world();
    const c = await newConversation(w);
    expect((await get(w, c.id, "", w.outsider.token)).status).toBe(403);
    expect((await get(w, c.id, "", w.agent.token)).status).toBe(200);
    const other = await makeAccount(w.h, "Other");
    expect(
      (
        await w.h.request("GET", `/api/v1/accounts/${other.accountId}/conversations/${c.id}/messages`, {
          token: other.adminToken,
        })
      ).status,
    ).toBe(404);
    expect((await get(w, 42)).status).toBe(404);
  });
});

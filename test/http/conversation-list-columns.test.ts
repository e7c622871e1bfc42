// List pages (the conversation list, filters, a contact's conversations) read each conversation's
// labels, unread count and newest message from columns triggers keep on the row (migration 022);
// a single conversation reads them from the tables. After labels added, removed and renamed,
// messages of every kind, an agent looking and "mark unread", both must say the same.
import { describe, expect, test } from "bun:test";
import { newConversation, send, world, type World } from "../helpers/conversation-fixtures.ts";

const SHOWN = ["labels", "unread_count", "messages", "last_non_activity_message"] as const;

async function ok(w: World, method: string, path: string, body?: unknown, token = w.a.adminToken) {
  const r = await w.h.request(method, `${w.base}${path}`, { token, body });
  expect([path, r.status]).toEqual([path, 200]);
  return r.body;
}

const pick = (c: Record<string, unknown>) => Object.fromEntries(SHOWN.map((k) => [k, c[k]]));

describe("list pages and the conversation itself agree", () => {
  test("labels, unread counts and newest messages after every kind of change", async () => {
    const w = await world();
    const one = (await newConversation(w)).id as number;
    const two = (await newConversation(w)).id as number;
    const three = (await newConversation(w)).id as number;

    await ok(w, "POST", `/conversations/${one}/labels`, { labels: ["billing", "vip"] });
    for (const body of [
      { content: "a", message_type: "incoming" },
      { content: "b" },
      { content: "c", private: true },
      { content: "d", message_type: "incoming" },
    ])
      expect((await send(w, one, body)).status).toBe(200);

    expect((await send(w, two, { content: "x", message_type: "incoming" })).status).toBe(200);
    w.h.clock.advance(10_000);
    await ok(w, "POST", `/conversations/${two}/update_last_seen`, {}, w.agent.token);
    w.h.clock.advance(10_000);
    expect((await send(w, two, { content: "y", message_type: "incoming" })).status).toBe(200);
    await ok(w, "POST", `/conversations/${two}/labels`, { labels: ["vip", "later"] });
    await ok(w, "POST", `/conversations/${two}/labels`, { labels: ["vip"] });

    await ok(w, "POST", `/conversations/${three}/toggle_status`, { status: "resolved" });
    expect((await send(w, three, { content: "z", message_type: "incoming" })).status).toBe(200);
    await ok(w, "POST", `/conversations/${three}/unread`, {}, w.agent.token);

    // Renaming the account's label re-tags every conversation in place.
    const vip = await ok(w, "POST", "/labels", { title: "vip" });
    await ok(w, "PATCH", `/labels/${vip.id}`, { title: "gold" });

    const shown: Record<number, Record<string, unknown>> = {};
    for (const id of [one, two, three]) shown[id] = pick(await ok(w, "GET", `/conversations/${id}`));

    // What the single views say, in concrete values.
    expect(shown[one]!.labels).toEqual(["billing", "gold"]);
    expect(shown[one]!.unread_count).toBe(2);
    expect((shown[one]!.messages as { content: string }[]).map((m) => m.content)).toEqual(["d"]);
    expect(shown[two]!.labels).toEqual(["gold"]);
    expect(shown[two]!.unread_count).toBe(1);
    // The contact's message reopened the resolved conversation: the newest message is that activity.
    expect((shown[three]!.messages as { content: string }[]).map((m) => m.content)).toEqual([
      "System reopened the conversation due to a new incoming message.",
    ]);
    expect((shown[three]!.last_non_activity_message as { content: string }).content).toBe("z");
    expect(shown[three]!.unread_count).toBe(1);

    const byId = (items: Record<string, unknown>[]) => new Map(items.map((c) => [c.id as number, pick(c)]));
    const list = byId((await ok(w, "GET", "/conversations?status=all")).data.payload);
    const filtered = byId(
      (
        await ok(w, "POST", "/conversations/filter", {
          payload: [
            { attribute_key: "status", filter_operator: "not_equal_to", values: ["snoozed"], query_operator: null },
          ],
        })
      ).payload,
    );
    const ofContact = byId((await ok(w, "GET", `/contacts/${w.contactId}/conversations`)).payload);
    for (const id of [one, two, three]) {
      expect([id, list.get(id)]).toEqual([id, shown[id]]);
      expect([id, filtered.get(id)]).toEqual([id, shown[id]]);
      expect([id, ofContact.get(id)]).toEqual([id, shown[id]]);
    }
  });
});

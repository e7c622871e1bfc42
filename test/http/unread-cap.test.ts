// Unread counts stop at 10 wherever they appear, as Chatwoot's do (`unread_incoming_messages` is
// `.last(10)`): the list, the conversation, and the `conversation` a message record carries (the
// create response, the message list, webhooks and realtime events alike).
import { describe, expect, test } from "bun:test";
import { newConversation, send, world } from "../helpers/conversation-fixtures.ts";

describe("unread counts", () => {
  test("12 unseen incoming messages read as 10 everywhere; 9 read as 9", async () => {
    const w = await world();
    const many = await newConversation(w);
    const few = await newConversation(w);
    let last: any;
    for (let i = 1; i <= 12; i++) {
      last = await send(w, many.id, { content: `incoming ${i}`, message_type: "incoming" });
      expect(last.status).toBe(200);
      if (i <= 9) expect((await send(w, few.id, { content: `q ${i}`, message_type: "incoming" })).status).toBe(200);
    }
    expect(last.body.conversation.unread_count).toBe(10);

    const show = await w.h.request("GET", `${w.base}/conversations/${many.id}`, { token: w.a.adminToken });
    expect(show.body.unread_count).toBe(10);
    expect(show.body.messages[0].conversation.unread_count).toBe(10);

    const list = await w.h.request("GET", `${w.base}/conversations?status=open`, { token: w.a.adminToken });
    const counts = Object.fromEntries(list.body.data.payload.map((c: any) => [c.id, c.unread_count]));
    expect(counts).toEqual({ [many.id]: 10, [few.id]: 9 });

    const messages = await w.h.request("GET", `${w.base}/conversations/${many.id}/messages`, {
      token: w.a.adminToken,
    });
    expect(new Set(messages.body.payload.map((m: any) => m.conversation.unread_count))).toEqual(new Set([10]));
  });
});

// The conversation list's search finds conversations by their messages (Chatwoot) and by their
// contact's name, email or phone (ours: "Emma" finds Emma's conversations), in every status, and
// an agent still sees only their inboxes.
import { describe, expect, test } from "bun:test";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";
import { makeInbox } from "../helpers/directory-fixtures.ts";

describe("GET conversations?q=", () => {
  test("matches messages, and the contact's name, email and phone", async () => {
    const w = await world();
    const emma = await w.h.request("POST", `${w.base}/contacts`, {
      token: w.a.adminToken,
      body: { name: "Emma Stone", email: "emma@films.example", phone_number: "+351912000111" },
    });
    const emmaId = emma.body.payload.contact.id;
    const byEmma = await newConversation(w, { contact_id: emmaId });
    const byCarla = await newConversation(w);
    await w.h.request("POST", `${w.base}/conversations/${byCarla.id}/messages`, {
      token: w.a.adminToken,
      body: { content: "Emma recommended you", message_type: "incoming" },
    });
    await w.h.request("POST", `${w.base}/conversations/${byEmma.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "resolved" },
    });
    const elsewhere = makeInbox(w.h, w.a.accountId, { name: "Hidden" });
    const hidden = await newConversation(w, { contact_id: emmaId, inbox_id: elsewhere });

    const ids = async (q: string, token = w.a.adminToken) =>
      (
        (await w.h.request("GET", `${w.base}/conversations?q=${encodeURIComponent(q)}`, { token })).body.data
          .payload as { id: number }[]
      )
        .map((c) => c.id)
        .sort((a, b) => a - b);
    expect(await ids("emma")).toEqual([byEmma.id, byCarla.id, hidden.id].sort((a, b) => a - b)); // name, and a message
    expect(await ids("films.example")).toEqual([byEmma.id, hidden.id].sort((a, b) => a - b)); // email
    expect(await ids("+351912")).toEqual([byEmma.id, hidden.id].sort((a, b) => a - b)); // phone
    expect(await ids("Carla")).toEqual([byCarla.id]);
    expect(await ids("nobody-at-all")).toEqual([]);
    // The agent works the first inbox only.
    expect(await ids("emma", w.agent.token)).toEqual([byEmma.id, byCarla.id].sort((a, b) => a - b));
    const meta = await w.h.request("GET", `${w.base}/conversations/meta?q=emma`, { token: w.a.adminToken });
    expect(meta.body.meta.all_count).toBe(3);
  });
});

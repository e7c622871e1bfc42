// Quoted replies, as Chatwoot resolves them on create (Messages::InReplyToMessageBuilder) and as
// Evolution API uses them: a customer's WhatsApp message arrives with its source_id; the agent's
// reply names it by id (the dashboard) or by that WhatsApp id, and the reply carries both, so the
// bridge can quote the right WhatsApp message. A message of another conversation or account is
// not a reply target: both keys read null.
import { describe, expect, test } from "bun:test";
import { makeAccount } from "../helpers/factories.ts";
import { newConversation, send, world } from "../helpers/conversation-fixtures.ts";

const attrs = (r: { status: number; body: any }) => {
  expect(r.status).toBe(200);
  return r.body.content_attributes;
};

describe("in_reply_to", () => {
  test("by id or by the channel's id, within the conversation; both keys set from the quoted message", async () => {
    const w = await world();
    const c = await newConversation(w);
    const quoted = await send(w, c.id, {
      content: "Is my order late?",
      message_type: "incoming",
      source_id: "wamid.AAA1",
    });
    expect(quoted.status).toBe(200);
    const id = quoted.body.id;

    expect(attrs(await send(w, c.id, { content: "Checking", content_attributes: { in_reply_to: id } }))).toEqual({
      in_reply_to: id,
      in_reply_to_external_id: "wamid.AAA1",
    });
    // Rails finds "123" as 123; the WhatsApp id alone finds the message too.
    expect(attrs(await send(w, c.id, { content: "Yes", content_attributes: { in_reply_to: String(id) } }))).toEqual({
      in_reply_to: id,
      in_reply_to_external_id: "wamid.AAA1",
    });
    const byWamid = await send(w, c.id, {
      content: "Quoting",
      message_type: "incoming",
      content_attributes: { in_reply_to_external_id: "wamid.AAA1" },
    });
    expect(attrs(byWamid)).toEqual({ in_reply_to: id, in_reply_to_external_id: "wamid.AAA1" });
    // A quoted message without a channel id gives a null external id; other attributes stay.
    const plain = await send(w, c.id, { content: "no source" });
    expect(
      attrs(await send(w, c.id, { content: "Re", content_attributes: { in_reply_to: plain.body.id, x: 1 } })),
    ).toEqual({ in_reply_to: plain.body.id, in_reply_to_external_id: null, x: 1 });

    // What the message list and a webhook's payload read is what was stored.
    const list = await w.h.request("GET", `${w.base}/conversations/${c.id}/messages`, { token: w.a.adminToken });
    const stored = list.body.payload.find((m: any) => m.id === byWamid.body.id);
    expect(stored.content_attributes).toEqual({ in_reply_to: id, in_reply_to_external_id: "wamid.AAA1" });
  });

  test("a message of another conversation, another account, or nothing: both keys null", async () => {
    const w = await world();
    const mine = await newConversation(w);
    const other = await newConversation(w);
    const elsewhere = await send(w, other.id, { content: "other", message_type: "incoming", source_id: "wamid.OTHER" });
    const b = await makeAccount(w.h, "Beta");
    const bInbox = await w.h.request("POST", `/api/v1/accounts/${b.accountId}/inboxes`, {
      token: b.adminToken,
      body: { name: "B", channel: { type: "api" } },
    });
    const bContact = await w.h.request("POST", `/api/v1/accounts/${b.accountId}/contacts`, {
      token: b.adminToken,
      body: { name: "B contact" },
    });
    const bConversation = await w.h.request("POST", `/api/v1/accounts/${b.accountId}/conversations`, {
      token: b.adminToken,
      body: { inbox_id: bInbox.body.id, contact_id: bContact.body.payload.contact.id },
    });
    const foreign = await w.h.request(
      "POST",
      `/api/v1/accounts/${b.accountId}/conversations/${bConversation.body.id}/messages`,
      {
        token: b.adminToken,
        body: { content: "B's secret", message_type: "incoming", source_id: "wamid.B" },
      },
    );
    expect(foreign.status).toBe(200);
    const none = { in_reply_to: null, in_reply_to_external_id: null };
    for (const ref of [
      { in_reply_to: elsewhere.body.id },
      { in_reply_to_external_id: "wamid.OTHER" },
      { in_reply_to: foreign.body.id },
      { in_reply_to_external_id: "wamid.B" },
      { in_reply_to: 99999999 },
      { in_reply_to: "abc" },
    ])
      expect([ref, attrs(await send(w, mine.id, { content: "Re", content_attributes: ref }))]).toEqual([ref, none]);
    // Neither key given: nothing is added.
    expect(attrs(await send(w, mine.id, { content: "Hi", content_attributes: { a: 1 } }))).toEqual({ a: 1 });
  });
});

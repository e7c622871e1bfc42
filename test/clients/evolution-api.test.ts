// Evolution API (the WhatsApp ↔ Chatwoot bridge) replayed with the library it uses,
// @figuro/chatwoot-sdk: the client for typed calls and its `request` for the raw ones
// (contacts/filter, actions/contact_merge). Each step asserts what Evolution reads back.
import { afterEach, describe, expect, test } from "bun:test";
import ChatwootClient, { type ChatwootAPIConfig } from "@figuro/chatwoot-sdk";
import { request as chatwootRequest } from "@figuro/chatwoot-sdk/dist/core/request";
import { createHarness } from "../helpers/harness.ts";
import { makeAccount } from "../helpers/factories.ts";
import { makeInbox } from "../helpers/directory-fixtures.ts";
import { servedEach } from "../helpers/served.ts";

const serve = servedEach(afterEach);

async function setup() {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  makeInbox(h, a.accountId, { name: "WhatsApp" });
  const served = serve(h);
  const config: ChatwootAPIConfig = {
    basePath: served.base,
    with_credentials: true,
    credentials: "include",
    token: a.adminToken,
  };
  return { h, a, config, base: served.base, client: new ChatwootClient({ config }) };
}

/** Evolution's getFilterPayload: identifier and phone_number, each number without "+", all OR-ed. */
function filterPayload(numbers: string[]) {
  const fields = ["identifier", "phone_number"];
  const out: Record<string, unknown>[] = [];
  fields.forEach((field, i) => {
    numbers.forEach((n, j) => {
      const last = i === fields.length - 1 && j === numbers.length - 1;
      out.push({
        attribute_key: field,
        filter_operator: "equal_to",
        values: [n.replace("+", "")],
        query_operator: last ? null : "OR",
      });
    });
  });
  return out;
}

/** Evolution's findContact for a person: the filter, then payload[0] (or the exact phone among several). */
async function findContact(config: ChatwootAPIConfig, accountId: number, phone: string): Promise<any | null> {
  const query = `+${phone}`;
  const contact: any = await chatwootRequest(config, {
    method: "POST",
    url: `/api/v1/accounts/${accountId}/contacts/filter`,
    body: { payload: filterPayload([query]) },
  });
  if (!contact || contact.payload.length === 0) return null;
  return contact.payload.length > 1 ? contact.payload.find((c: any) => c.phone_number === query) : contact.payload[0];
}

describe("Evolution API's inbound WhatsApp message", () => {
  test("lookup (miss) → create contact → lookup (hit) → conversation → incoming text message", async () => {
    const { a, config, client } = await setup();
    const phone = "5511987654321";
    const jid = `${phone}@s.whatsapp.net`;
    const accountId = a.accountId;

    const inboxes: any = await client.inboxes.list({ accountId });
    const inbox = inboxes.payload.find((i: any) => i.name === "WhatsApp");
    expect(inbox.id).toBeGreaterThan(0);

    expect(await findContact(config, accountId, phone)).toBeNull();

    const created: any = await client.contacts.create({
      accountId,
      data: { inbox_id: inbox.id, name: "Maria", phone_number: `+${phone}`, identifier: jid, avatar_url: "" } as any,
    });
    const contactId = created?.payload?.id || created?.payload?.contact?.id || created?.id;
    expect(contactId).toBe(created.payload.contact.id);

    const found = await findContact(config, accountId, phone);
    expect(found).toMatchObject({ id: contactId, name: "Maria", phone_number: `+${phone}`, identifier: jid });

    const conversations: any = await client.contacts.listConversations({ accountId, id: contactId });
    expect(conversations.payload).toEqual([]);
    const conversation: any = await client.conversations.create({
      accountId,
      data: { contact_id: String(contactId), inbox_id: String(inbox.id) } as any,
    });
    expect(conversation.id).toBe(1);
    expect(conversation.inbox_id).toBe(inbox.id);

    const message: any = await client.messages.create({
      accountId,
      conversationId: conversation.id,
      data: {
        content: "Olá, preciso de ajuda",
        message_type: "incoming",
        private: false,
        content_attributes: {},
        source_id: "WAID:3EB0A1",
      } as any,
    });
    expect(message).toMatchObject({
      content: "Olá, preciso de ajuda",
      message_type: 0,
      conversation_id: conversation.id,
      inbox_id: inbox.id,
      source_id: "WAID:3EB0A1",
    });
    expect(message.id).toBeGreaterThan(0);

    // The next message from the same sender: the open conversation in this inbox is reused.
    const again: any = await client.contacts.listConversations({
      accountId,
      id: (await findContact(config, accountId, phone)).id,
    });
    const open = again.payload.find((c: any) => c.status !== "resolved" && c.inbox_id === inbox.id);
    expect(open.id).toBe(conversation.id);
  });

  test("Brazilian numbers with and without the ninth digit: both found, then merged into one", async () => {
    const { a, config, client } = await setup();
    const accountId = a.accountId;
    const inboxes: any = await client.inboxes.list({ accountId });
    const inboxId = inboxes.payload[0].id;
    const withNine: any = await client.contacts.create({
      accountId,
      data: { inbox_id: inboxId, name: "João", phone_number: "+5511987654321" } as any,
    });
    const withoutNine: any = await client.contacts.create({
      accountId,
      data: { inbox_id: inboxId, name: "João 2", phone_number: "+551187654321" } as any,
    });
    const both: any = await chatwootRequest(config, {
      method: "POST",
      url: `/api/v1/accounts/${accountId}/contacts/filter`,
      body: { payload: filterPayload(["+5511987654321", "+551187654321"]) },
    });
    expect(both.payload.map((c: any) => c.phone_number).sort()).toEqual(["+551187654321", "+5511987654321"]);

    const merged: any = await chatwootRequest(config, {
      method: "POST",
      url: `/api/v1/accounts/${accountId}/actions/contact_merge`,
      body: { base_contact_id: withNine.payload.contact.id, mergee_contact_id: withoutNine.payload.contact.id },
    });
    expect(merged).toMatchObject({ id: withNine.payload.contact.id, phone_number: "+5511987654321" });
    const after: any = await chatwootRequest(config, {
      method: "POST",
      url: `/api/v1/accounts/${accountId}/contacts/filter`,
      body: { payload: filterPayload(["+5511987654321", "+551187654321"]) },
    });
    expect(after.payload.map((c: any) => c.id)).toEqual([withNine.payload.contact.id]);
  });

  test("a wrong token: the SDK's raw request sees Chatwoot's 401 body, and nothing is created", async () => {
    const { h, a, base } = await setup();
    const config: ChatwootAPIConfig = {
      basePath: base,
      with_credentials: true,
      credentials: "include",
      token: "wrong",
    };
    const r: any = await chatwootRequest(config, {
      method: "POST",
      url: `/api/v1/accounts/${a.accountId}/contacts/filter`,
      body: { payload: filterPayload(["+1555"]) },
    }).catch((e) => e);
    expect(r.status).toBe(401);
    expect((h.deps.db.query("SELECT COUNT(*) AS n FROM contacts").get() as { n: number }).n).toBe(0);
  });
});

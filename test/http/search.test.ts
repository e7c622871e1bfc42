// GET search, search/conversations, search/messages, search/contacts: Chatwoot's search, within the
// inboxes the caller works, 15 a page, newest first.
import { describe, expect, test } from "bun:test";
import { addInboxMember, makeInbox } from "../helpers/directory-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { newConversation, send, world, type World } from "../helpers/conversation-fixtures.ts";

const search = (w: World, path: string, token = w.a.adminToken) =>
  w.h.request("GET", `${w.base}/search${path}`, { token });
const contact = async (w: World, body: Record<string, unknown>) =>
  (await w.h.request("POST", `${w.base}/contacts`, { token: w.a.adminToken, body })).body.payload.contact.id as number;

describe("GET search/conversations", () => {
  test("by the contact's name, email, phone or identifier, or the display id; newest first, with Chatwoot's shape", async () => {
    const w = await world();
    const first = await newConversation(w); // Carla Customer, carla@example.com
    await send(w, first.id, { content: "Hello there", message_type: "incoming" });
    const dora = await contact(w, { name: "Dora Explorer", phone_number: "+4915112345678", identifier: "CRM-77" });
    const second = await newConversation(w, { contact_id: dora, assignee_id: w.agent.userId });
    const ids = async (q: string) =>
      (
        (await search(w, `/conversations?q=${encodeURIComponent(q)}`)).body.payload.conversations as { id: number }[]
      ).map((c) => c.id);
    expect(await ids("CARLA")).toEqual([first.id]);
    expect(await ids("example.COM")).toEqual([first.id]);
    expect(await ids("151123")).toEqual([second.id]);
    expect(await ids("crm-7")).toEqual([second.id]);
    expect(await ids("r")).toEqual([second.id, first.id]);
    expect(await ids(String(second.id))).toEqual([second.id]);
    expect(await ids("nobody")).toEqual([]);

    const found = (await search(w, "/conversations?q=dora")).body.payload.conversations[0];
    expect(found).toEqual({
      id: second.id,
      account_id: w.a.accountId,
      created_at: second.created_at,
      // Its first message, as Chatwoot's `conversation.messages.first`: here the assignment's activity.
      message: expect.objectContaining({ content: "Assigned to Ann Agent by Admin", message_type: 2 }),
      contact: {
        email: null,
        id: dora,
        name: "Dora Explorer",
        phone_number: "+4915112345678",
        identifier: "CRM-77",
        additional_attributes: {},
        last_activity_at: null,
      },
      inbox: { id: w.inboxId, channel_id: w.inboxId, name: "API", channel_type: "Channel::Api" },
      agent: {
        id: w.agent.userId,
        available_name: "Ann Agent",
        email: expect.any(String),
        name: "Ann Agent",
        role: "agent",
      },
      additional_attributes: {},
    });
    const withMessage = (await search(w, "/conversations?q=carla")).body.payload.conversations[0];
    expect(withMessage.message).toMatchObject({
      content: "Hello there",
      message_type: 0,
      conversation_id: first.id,
      sender: { id: w.contactId, name: "Carla Customer", type: "contact" },
    });
    expect(withMessage.agent).toEqual({});
  });

  test("15 a page; an agent finds only conversations of inboxes they work", async () => {
    const w = await world();
    const made: number[] = [];
    for (let i = 0; i < 17; i++) made.push((await newConversation(w)).id);
    const page = async (n: number, token?: string) =>
      ((await search(w, `/conversations?q=carla&page=${n}`, token)).body.payload.conversations as { id: number }[]).map(
        (c) => c.id,
      );
    expect(await page(1)).toEqual(made.slice(2).reverse());
    expect(await page(2)).toEqual(made.slice(0, 2).reverse());
    // A conversation without messages has an empty one, as Chatwoot renders it.
    expect((await search(w, "/conversations?q=carla")).body.payload.conversations[0].message).toEqual({});
    const other = makeInbox(w.h, w.a.accountId, { name: "Other" });
    const hidden = await newConversation(w, { inbox_id: other });
    expect((await page(1)).includes(hidden.id)).toBe(true);
    expect((await page(1, w.agent.token)).includes(hidden.id)).toBe(false);
    expect(await page(1, w.outsider.token)).toEqual([]);
    addInboxMember(w.h, other, w.outsider.userId);
    expect(await page(1, w.outsider.token)).toEqual([hidden.id]);
  });
});

describe("GET search/messages", () => {
  test("text anywhere in a message, any case, newest first; % and _ are only themselves", async () => {
    const w = await world();
    const c = await newConversation(w);
    await send(w, c.id, { content: "Is 100% of my refund back?", message_type: "incoming" });
    w.h.clock.advance(1000);
    await send(w, c.id, { content: "Your REFUND left today", message_type: "outgoing" });
    await send(w, c.id, { content: "snake_case and 1000 things", message_type: "outgoing", private: true });
    const contents = async (q: string) =>
      ((await search(w, `/messages?q=${encodeURIComponent(q)}`)).body.payload.messages as { content: string }[]).map(
        (m) => m.content,
      );
    expect(await contents("refund")).toEqual(["Your REFUND left today", "Is 100% of my refund back?"]);
    expect(await contents("0%")).toEqual(["Is 100% of my refund back?"]);
    expect(await contents("e_c")).toEqual(["snake_case and 1000 things"]);
    const [agentSide] = (await search(w, "/messages?q=left")).body.payload.messages;
    expect(agentSide).toEqual({
      id: expect.any(Number),
      content: "Your REFUND left today",
      message_type: 1,
      content_type: "text",
      source_id: null,
      inbox_id: w.inboxId,
      conversation_id: c.id,
      created_at: Math.floor(w.h.clock.nowMs() / 1000),
      sender: expect.objectContaining({ id: w.a.adminId, name: "Admin", type: "user" }),
      inbox: { id: w.inboxId, channel_id: w.inboxId, name: "API", channel_type: "Channel::Api" },
    });
  });

  test("only the last three months, and only the caller's inboxes", async () => {
    const w = await world();
    const c = await newConversation(w);
    await send(w, c.id, { content: "old refund question", message_type: "incoming" });
    w.h.clock.advance(91 * 24 * 3600 * 1000);
    await send(w, c.id, { content: "new refund question", message_type: "incoming" });
    const contents = async (token?: string) =>
      ((await search(w, "/messages?q=refund", token)).body.payload.messages as { content: string }[]).map(
        (m) => m.content,
      );
    expect(await contents()).toEqual(["new refund question"]);
    expect(await contents(w.agent.token)).toEqual(["new refund question"]);
    expect(await contents(w.outsider.token)).toEqual([]);
  });
});

describe("GET search/contacts and GET search", () => {
  test("contacts as contacts/search finds them, most recently active first; search answers all three kinds", async () => {
    const w = await world();
    const dora = await contact(w, { name: "Dora Carlsen", email: "dora@example.org" });
    w.h.clock.advance(1000);
    const c = await newConversation(w);
    await send(w, c.id, { content: "carla writes again", message_type: "incoming" });
    const contacts = (await search(w, "/contacts?q=carl")).body.payload.contacts as Record<string, unknown>[];
    expect(contacts.map((x) => x.id)).toEqual([w.contactId, dora]);
    expect(contacts[1]).toEqual({
      email: "dora@example.org",
      id: dora,
      name: "Dora Carlsen",
      phone_number: null,
      identifier: null,
      additional_attributes: {},
      last_activity_at: null,
    });
    const all = (await search(w, "?q=carla")).body.payload;
    expect(Object.keys(all).sort()).toEqual(["contacts", "conversations", "messages"]);
    expect(all.contacts.map((x: { id: number }) => x.id)).toEqual([w.contactId]);
    expect(all.conversations.map((x: { id: number }) => x.id)).toEqual([c.id]);
    expect(all.messages.map((x: { content: string }) => x.content)).toEqual(["carla writes again"]);
  });

  test("q is required and bounded; another account's token is refused and its data never found", async () => {
    const w = await world();
    await newConversation(w);
    for (const qs of ["", "?q=", "?q=%20%20", "?q=a%00b", `?q=${"x".repeat(501)}`]) {
      for (const kind of ["", "/conversations", "/messages", "/contacts"]) {
        const r = await search(w, `${kind}${qs}`);
        expect({ kind, status: r.status, field: r.body.errors?.[0]?.field }).toEqual({ kind, status: 422, field: "q" });
      }
    }
    const other = await makeAccount(w.h, "Globex");
    expect((await search(w, "?q=carla", other.adminToken)).status).toBe(401);
    const theirs = await w.h.request("GET", `/api/v1/accounts/${other.accountId}/search?q=carla`, {
      token: other.adminToken,
    });
    expect(theirs.body.payload).toEqual({ contacts: [], messages: [], conversations: [] });
  });
});

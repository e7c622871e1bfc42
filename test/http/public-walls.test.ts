// Walls of the public API: a contact identifier reaches only its own conversations (another
// contact's: 401, per the spec), an inbox identifier only its own contacts (404), another account
// nothing, and public identifiers open nothing of the account API. Refused requests change nothing.
import { describe, expect, test } from "bun:test";
import { makeAccount, makeInbox } from "../helpers/factories.ts";
import {
  agentSays,
  contactPath,
  newContact,
  openConversation,
  publicWorld,
  say,
  type PublicContact,
  type PublicWorld,
} from "../helpers/public-fixtures.ts";

/** Every route under a conversation, as [method, path suffix, body]. */
function conversationRoutes(messageId: number): [string, string, unknown][] {
  return [
    ["GET", "", undefined],
    ["POST", "/toggle_status", {}],
    ["POST", "/toggle_typing", { typing_status: "on" }],
    ["POST", "/update_last_seen", {}],
    ["GET", "/messages", undefined],
    ["POST", "/messages", { content: "let me in" }],
    ["PATCH", `/messages/${messageId}`, { submitted_values: { value: "x" } }],
    ["PUT", `/messages/${messageId}`, { submitted_values: { value: "x" } }],
  ];
}

async function setup() {
  const w = await publicWorld();
  const alice = await newContact(w, { name: "Alice", email: "alice@example.com" });
  const bob = await newContact(w, { name: "Bob", email: "bob@example.com" });
  const conv = await openConversation(w, alice);
  await say(w, alice, conv.id, "my secret order");
  const reply = await agentSays(w, conv.id, { content: "Your order ships today" });
  return { w, alice, bob, conv, reply };
}

const snapshot = (w: PublicWorld) => ({
  messages: w.h.deps.db.query("SELECT id, status, content_attributes FROM messages ORDER BY id").all(),
  conversations: w.h.deps.db.query("SELECT id, status, contact_last_seen_at FROM conversations ORDER BY id").all(),
  events: w.h.lastEventId(),
});

describe("walls between contacts", () => {
  test("another contact's conversation is 401 on every route, and nothing changes", async () => {
    const { w, bob, conv, reply } = await setup();
    const before = snapshot(w);
    for (const [method, suffix, body] of conversationRoutes(reply.id)) {
      const r = await w.h.request(method, `${contactPath(w, bob)}/conversations/${conv.id}${suffix}`, { body });
      expect([method, suffix, r.status, r.body.errors]).toEqual([
        method,
        suffix,
        401,
        [
          {
            field: "conversation_id",
            message: "This conversation does not belong to this contact",
            code: "unauthorized",
          },
        ],
      ]);
    }
    expect(snapshot(w)).toEqual(before);
    expect((await w.h.request("GET", `${contactPath(w, bob)}/conversations`)).body).toEqual([]);
  });
});

describe("walls between inboxes and accounts", () => {
  test("a contact identifier under another inbox's identifier is 404 on every route", async () => {
    const { w, alice, conv, reply } = await setup();
    const other = await makeInbox(w.h, w.a, { name: "Other API" });
    const otherBase = `/public/api/v1/inboxes/${other.identifier}`;
    const before = snapshot(w);
    const paths: [string, string, unknown][] = [
      ["GET", "", undefined],
      ["PATCH", "", { name: "x" }],
      ["GET", "/conversations", undefined],
      ["POST", "/conversations", {}],
      ...conversationRoutes(reply.id).map(
        ([m, s, b]) => [m, `/conversations/${conv.id}${s}`, b] as [string, string, unknown],
      ),
    ];
    for (const [method, suffix, body] of paths) {
      const r = await w.h.request(method, `${contactPath(w, alice, otherBase)}${suffix}`, { body });
      expect([method, suffix, r.status, r.body.errors[0].field]).toEqual([method, suffix, 404, "contact_identifier"]);
    }
    expect(snapshot(w)).toEqual(before);
  });

  test("another account's inbox never reaches this account's conversations, even with the same display id", async () => {
    const { w, conv } = await setup();
    const b = await makeAccount(w.h, "Beta");
    const bInbox = await makeInbox(w.h, b, { name: "Beta API" });
    const bBase = `/public/api/v1/inboxes/${bInbox.identifier}`;
    const stranger = await newContact(w, { name: "Stranger" }, bBase);
    const r = await w.h.request("GET", `${contactPath(w, stranger, bBase)}/conversations/${conv.id}/messages`);
    expect([r.status, r.body.errors[0].code]).toEqual([404, "not_found"]);
    // Beta's own conversation 1 is Beta's.
    const own = await w.h.request("POST", `${contactPath(w, stranger, bBase)}/conversations`, { body: {} });
    expect([own.body.id, own.body.inbox_id]).toEqual([1, bInbox.id]);
    expect((await w.h.request("GET", `${contactPath(w, stranger, bBase)}/conversations/1/messages`)).body).toEqual([]);
  });

  test("public identifiers open nothing of the account API", async () => {
    const { w, alice } = await setup();
    const c = alice as PublicContact;
    for (const token of [c.source_id, c.pubsub_token, w.inbox.identifier!]) {
      for (const path of ["/api/v1/profile", `${w.api}/conversations`, `${w.api}/contacts/${c.id}`]) {
        expect([path, (await w.h.request("GET", path, { token })).status]).toEqual([path, 401]);
      }
    }
    expect((await w.h.request("GET", `/public/api/v1/accounts/${w.a.accountId}/conversations`)).status).toBe(404);
    expect((await w.h.request("GET", `${w.base}/conversations`)).status).toBe(404);
  });
});

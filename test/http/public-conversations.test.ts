// Public API conversations: create, list, show (exact records), resolve, typing, last seen.
import { describe, expect, test } from "bun:test";
import { makeInbox } from "../helpers/factories.ts";
import {
  agentSays,
  contactPath,
  contactSender,
  newContact,
  NOW,
  openConversation,
  publicWorld,
  say,
  userSender,
} from "../helpers/public-fixtures.ts";

describe("POST conversations", () => {
  test("opens a conversation in this inbox for this identity: the public record, conversation_created by the contact", async () => {
    const w = await publicWorld();
    const c = await newContact(w, { name: "Carla", email: "carla@example.com" });
    const before = w.h.lastEventId();
    const conv = await openConversation(w, c, { custom_attributes: { order: "A-1" } });
    expect(conv).toEqual({
      id: 1,
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      inbox_id: w.inbox.id,
      contact_last_seen_at: 0,
      status: "open",
      agent_last_seen_at: 0,
      messages: [],
      contact: {
        id: c.id,
        name: "Carla",
        email: "carla@example.com",
        phone_number: null,
        identifier: null,
        blocked: false,
        additional_attributes: {},
        custom_attributes: {},
        account_id: w.a.accountId,
        last_activity_at: null,
        created_at: "2026-01-05T09:00:00.000Z",
        updated_at: "2026-01-05T09:00:00.000Z",
      },
    });
    const events = w.h.events(before);
    expect(events.map((e) => [e.kind, e.actor])).toEqual([["conversation_created", { type: "contact", id: c.id }]]);
    expect(events[0]!.payload).toMatchObject({
      id: 1,
      inbox_id: w.inbox.id,
      custom_attributes: { order: "A-1" },
      contact_inbox: { source_id: c.source_id },
    });
    const agentView = await w.h.request("GET", `${w.api}/conversations/1`, { token: w.agent.token });
    expect(agentView.body).toMatchObject({
      id: 1,
      status: "open",
      custom_attributes: { order: "A-1" },
      meta: { sender: { id: c.id } },
    });
  });

  test("with lock_to_single_conversation the identity's last conversation comes back", async () => {
    const w = await publicWorld({ lock_to_single_conversation: true });
    const c = await newContact(w);
    const first = await openConversation(w, c);
    const second = await openConversation(w, c);
    expect(second.id).toBe(first.id);
  });
});

describe("GET conversations and conversations/:id", () => {
  test("the identity's conversations, newest activity first, each with the messages the contact may see", async () => {
    const w = await publicWorld();
    const c = await newContact(w, { name: "Carla" });
    const one = await openConversation(w, c);
    w.h.clock.advance(1000);
    const two = await openConversation(w, c);
    w.h.clock.advance(1000);
    const hi = await say(w, c, one.id, "Hello?");
    const reply = await agentSays(w, one.id, { content: "Hi Carla" });
    await agentSays(w, one.id, { content: "internal note", private: true });
    const r = await w.h.request("GET", `${contactPath(w, c)}/conversations`);
    expect(r.status).toBe(200);
    expect(r.body.map((x: any) => x.id)).toEqual([one.id, two.id]);
    expect(r.body[0].messages).toEqual([
      {
        id: hi.id,
        content: "Hello?",
        message_type: 0,
        content_type: "text",
        content_attributes: {},
        created_at: NOW + 2,
        conversation_id: one.id,
        sender: contactSender({ ...c, name: "Carla" }),
      },
      {
        id: reply.id,
        content: "Hi Carla",
        message_type: 1,
        content_type: "text",
        content_attributes: {},
        created_at: NOW + 2,
        conversation_id: one.id,
        sender: userSender(w.a.adminId, "Admin"),
      },
    ]);
    expect(r.body[0].contact.last_activity_at).toBe("2026-01-05T09:00:02.000Z");
    const shown = await w.h.request("GET", `${contactPath(w, c)}/conversations/${one.id}`);
    expect(shown.body).toEqual(r.body[0]);
  });

  test("an unverified identity sees only its own conversations; a verified one all of its contact's, in every inbox", async () => {
    const w = await publicWorld();
    const hash = (id: string) => new Bun.CryptoHasher("sha256", w.inbox.hmac_token!).update(id).digest("hex");
    const phone = await newContact(w, { identifier: "u-9" });
    const mine = await openConversation(w, phone);
    const laptop = await newContact(w, { identifier: "u-9" });
    expect(laptop.id).toBe(phone.id);
    expect((await w.h.request("GET", `${contactPath(w, laptop)}/conversations`)).body).toEqual([]);
    const refused = await w.h.request("GET", `${contactPath(w, laptop)}/conversations/${mine.id}`);
    expect(refused.status).toBe(401);
    // The same contact in another inbox, through the account API.
    const other = await makeInbox(w.h, w.a, { name: "Email-ish API" });
    const elsewhere = await w.h.request("POST", `${w.api}/conversations`, {
      token: w.a.adminToken,
      body: { inbox_id: other.id, contact_id: phone.id },
    });
    const verified = await newContact(w, { identifier: "u-9", identifier_hash: hash("u-9") });
    const all = await w.h.request("GET", `${contactPath(w, verified)}/conversations`);
    expect(all.body.map((x: any) => [x.id, x.inbox_id]).sort()).toEqual(
      [
        [mine.id, w.inbox.id],
        [elsewhere.body.id, other.id],
      ].sort(),
    );
    expect((await w.h.request("GET", `${contactPath(w, verified)}/conversations/${elsewhere.body.id}`)).status).toBe(
      200,
    );
  });

  test("unknown and malformed conversation ids are 404", async () => {
    const w = await publicWorld();
    const c = await newContact(w);
    for (const id of ["99", "abc", "0"]) {
      const r = await w.h.request("GET", `${contactPath(w, c)}/conversations/${id}`);
      expect([r.status, r.body.errors[0].field, r.body.errors[0].code]).toEqual([404, "conversation_id", "not_found"]);
    }
  });
});

describe("POST conversations/:id/toggle_status", () => {
  test("resolves as the contact: Chatwoot's activity text and events; the activity stays out of the public record", async () => {
    const w = await publicWorld();
    const c = await newContact(w, { name: "carla jones" });
    const conv = await openConversation(w, c);
    w.h.clock.advance(3000);
    const before = w.h.lastEventId();
    const r = await w.h.request("POST", `${contactPath(w, c)}/conversations/${conv.id}/toggle_status`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: conv.id, status: "resolved", messages: [] });
    const events = w.h.events(before);
    expect(events.map((e) => e.kind)).toEqual([
      "conversation_status_changed",
      "conversation_resolved",
      "conversation_updated",
      "message_created",
    ]);
    expect(events.every((e) => e.actor.type === "contact" && e.actor.id === c.id)).toBe(true);
    expect(events[3]!.payload).toMatchObject({
      content: "Conversation was resolved by Carla jones",
      message_type: "activity",
    });
    const agentList = await w.h.request("GET", `${w.api}/conversations/${conv.id}/messages`, { token: w.a.adminToken });
    expect(agentList.body.payload.map((m: any) => m.content)).toEqual(["Conversation was resolved by Carla jones"]);
  });

  test("already resolved: 200 and nothing happens", async () => {
    const w = await publicWorld();
    const c = await newContact(w);
    const conv = await openConversation(w, c);
    await w.h.request("POST", `${contactPath(w, c)}/conversations/${conv.id}/toggle_status`);
    const before = w.h.lastEventId();
    const again = await w.h.request("POST", `${contactPath(w, c)}/conversations/${conv.id}/toggle_status`);
    expect([again.status, again.body.status]).toEqual([200, "resolved"]);
    expect(w.h.events(before)).toEqual([]);
  });
});

describe("POST conversations/:id/toggle_typing", () => {
  test("on and off record typing events with Chatwoot's payload; anything else is 422", async () => {
    const w = await publicWorld();
    const c = await newContact(w, { name: "Tess" });
    const conv = await openConversation(w, c);
    const path = `${contactPath(w, c)}/conversations/${conv.id}/toggle_typing`;
    const before = w.h.lastEventId();
    const on = await w.h.request("POST", path, { body: { typing_status: "on" } });
    expect([on.status, on.text]).toEqual([200, ""]);
    await w.h.request("POST", path, { form: { typing_status: "off" } });
    const events = w.h.events(before);
    expect(events.map((e) => [e.kind, e.actor])).toEqual([
      ["conversation_typing_on", { type: "contact", id: c.id }],
      ["conversation_typing_off", { type: "contact", id: c.id }],
    ]);
    expect(events[0]!.payload).toMatchObject({
      conversation: { id: conv.id, inbox_id: w.inbox.id },
      user: { id: c.id, name: "Tess", account: { id: w.a.accountId } },
      is_private: false,
    });
    const bad = await w.h.request("POST", path, { body: { typing_status: "maybe" } });
    expect([bad.status, bad.body.errors]).toEqual([
      422,
      [{ field: "typing_status", message: "must be on or off", code: "invalid" }],
    ]);
  });
});

describe("POST conversations/:id/update_last_seen", () => {
  test("sets contact_last_seen_at and marks the agents' public messages read, each with message_updated", async () => {
    const w = await publicWorld();
    const c = await newContact(w);
    const conv = await openConversation(w, c);
    const mine = await say(w, c, conv.id, "question");
    const reply = await agentSays(w, conv.id, { content: "answer" });
    const note = await agentSays(w, conv.id, { content: "note", private: true });
    w.h.clock.advance(10_000);
    const before = w.h.lastEventId();
    const r = await w.h.request("POST", `${contactPath(w, c)}/conversations/${conv.id}/update_last_seen`);
    expect([r.status, r.text]).toEqual([200, ""]);
    const status = (id: number) =>
      (w.h.deps.db.query("SELECT status FROM messages WHERE id = ?").get(id) as { status: string }).status;
    expect([status(mine.id), status(reply.id), status(note.id)]).toEqual(["sent", "read", "sent"]);
    const events = w.h.events(before);
    expect(events.map((e) => [e.kind, e.actor, e.payload.id])).toEqual([
      ["message_updated", { type: "contact", id: c.id }, reply.id],
    ]);
    const shown = await w.h.request("GET", `${contactPath(w, c)}/conversations/${conv.id}`);
    expect(shown.body.contact_last_seen_at).toBe(NOW + 10);
    // Seen again: nothing left to mark.
    const later = w.h.lastEventId();
    await w.h.request("POST", `${contactPath(w, c)}/conversations/${conv.id}/update_last_seen`);
    expect(w.h.events(later)).toEqual([]);
  });
});

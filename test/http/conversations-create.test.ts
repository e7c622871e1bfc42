// POST /conversations (docs/compatibility.md #1) and GET /conversations/:id.
import { describe, expect, test } from "bun:test";
import { addInboxMember, addTeamMember, makeInbox, makeTeam } from "../helpers/directory-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";

const NOW = 1767603600;

describe("POST /conversations", () => {
  test("returns the full conversation object; id is the per-account display id", async () => {
    const w = await world();
    const c = await newConversation(w, {
      source_id: "src-1",
      additional_attributes: { browser: "Firefox" },
      custom_attributes: { order: 42 },
    });
    expect(c).toEqual({
      meta: {
        sender: {
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
          created_at: NOW,
        },
        channel: "Channel::Api",
        hmac_verified: false,
      },
      id: 1,
      messages: [],
      account_id: w.a.accountId,
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      inbox_id: w.inboxId,
      additional_attributes: { browser: "Firefox" },
      custom_attributes: { order: 42 },
      agent_last_seen_at: 0,
      assignee_last_seen_at: 0,
      contact_last_seen_at: 0,
      can_reply: true,
      labels: [],
      muted: false,
      snoozed_until: null,
      status: "open",
      created_at: NOW,
      updated_at: NOW,
      timestamp: NOW,
      last_activity_at: NOW,
      first_reply_created_at: 0,
      waiting_since: NOW,
      unread_count: 0,
      last_non_activity_message: null,
      priority: null,
      sla_policy_id: null,
    });
    expect(w.h.deps.db.query("SELECT source_id FROM contact_inboxes WHERE contact_id = ?").all(w.contactId)).toEqual([
      { source_id: "src-1" },
    ]);
  });

  test("display ids count per account from 1 and are never reused; show finds by display id", async () => {
    const w = await world();
    const other = await makeAccount(w.h, "Other");
    const otherInbox = makeInbox(w.h, other.accountId);
    const otherContact = (
      await w.h.request("POST", `/api/v1/accounts/${other.accountId}/contacts`, {
        token: other.adminToken,
        body: { name: "Z" },
      })
    ).body.payload.contact.id;
    expect((await newConversation(w)).id).toBe(1);
    const theirs = await w.h.request("POST", `/api/v1/accounts/${other.accountId}/conversations`, {
      token: other.adminToken,
      body: { inbox_id: otherInbox, contact_id: otherContact },
    });
    expect(theirs.body.id).toBe(1);
    expect((await newConversation(w)).id).toBe(2);
    w.h.deps.db.query("DELETE FROM conversations WHERE account_id = ? AND display_id = 2").run(w.a.accountId);
    expect((await newConversation(w)).id).toBe(3);
    const shown = await w.h.request("GET", `${w.base}/conversations/3`, { token: w.a.adminToken });
    expect(shown.body).toMatchObject({ id: 3, account_id: w.a.accountId });
    expect((await w.h.request("GET", `${w.base}/conversations/2`, { token: w.a.adminToken })).status).toBe(404);
  });

  test("records conversation_created with Chatwoot's push data", async () => {
    const w = await world();
    const before = w.h.lastEventId();
    const c = await newConversation(w, { source_id: "s-9" });
    const events = w.h.events(before);
    expect(events.map((e) => e.kind)).toEqual(["conversation_created"]);
    const p = events[0]!.payload;
    expect(p).toEqual({
      additional_attributes: {},
      can_reply: true,
      channel: "Channel::Api",
      contact_inbox: {
        id: expect.any(Number),
        contact_id: w.contactId,
        inbox_id: w.inboxId,
        source_id: "s-9",
        created_at: "2026-01-05T09:00:00.000Z",
        updated_at: "2026-01-05T09:00:00.000Z",
        hmac_verified: false,
        pubsub_token: expect.any(String),
      },
      id: c.id,
      inbox_id: w.inboxId,
      messages: [],
      labels: [],
      meta: {
        sender: {
          additional_attributes: {},
          custom_attributes: {},
          email: "carla@example.com",
          id: w.contactId,
          identifier: null,
          name: "Carla Customer",
          phone_number: null,
          thumbnail: "",
          blocked: false,
          type: "contact",
        },
        assignee: null,
        assignee_type: null,
        team: null,
        hmac_verified: false,
      },
      status: "open",
      custom_attributes: {},
      snoozed_until: null,
      unread_count: 0,
      first_reply_created_at: null,
      priority: null,
      waiting_since: NOW,
      agent_last_seen_at: 0,
      contact_last_seen_at: 0,
      last_activity_at: NOW,
      timestamp: NOW,
      created_at: NOW,
      updated_at: NOW,
    });
    expect(events[0]!.conversationId).toBe(
      (w.h.deps.db.query("SELECT id FROM conversations WHERE display_id = ?").get(c.id) as { id: number }).id,
    );
    expect(events[0]!.contactId).toBe(w.contactId);
    expect(events[0]!.inboxId).toBe(w.inboxId);
  });

  test("status, snoozed_until (ISO 8601), assignee and team are set; assignment writes its activity and events", async () => {
    const w = await world();
    const team = makeTeam(w.h, w.a.accountId, "billing");
    addTeamMember(w.h, team, w.agent.userId);
    const before = w.h.lastEventId();
    const c = await newConversation(w, {
      status: "snoozed",
      snoozed_until: "2026-01-06T10:00:00Z",
      assignee_id: w.agent.userId,
      team_id: team,
    });
    expect(c.status).toBe("snoozed");
    expect(c.snoozed_until).toBe("2026-01-06T10:00:00.000Z");
    expect(c.meta.assignee).toMatchObject({ id: w.agent.userId, name: "Ann Agent", role: "agent" });
    expect(c.meta.assignee_type).toBe("User");
    expect(c.meta.team).toEqual({
      id: team,
      name: "billing",
      description: null,
      allow_auto_assign: true,
      account_id: w.a.accountId,
      is_member: false,
    });
    expect(c.messages[0]).toMatchObject({ message_type: 2, content: "Assigned to Ann Agent via billing by Admin" });
    expect(w.h.events(before).map((e) => e.kind)).toEqual([
      "conversation_created",
      "conversation_updated",
      "assignee_changed",
      "team_changed",
      "message_created",
    ]);
  });

  test("a team drops an assignee who is not in it; a blocked contact's conversation starts resolved; snoozed_until is dropped unless snoozed", async () => {
    const w = await world();
    const team = makeTeam(w.h, w.a.accountId, "sales");
    const c = await newConversation(w, {
      assignee_id: w.agent.userId,
      team_id: team,
      snoozed_until: "2026-02-01T00:00:00Z",
    });
    expect(c.meta.assignee).toBeUndefined();
    expect(c.meta.team.id).toBe(team);
    expect(c.snoozed_until).toBeNull();
    await w.h.request("PATCH", `${w.base}/contacts/${w.contactId}`, { token: w.a.adminToken, body: { blocked: true } });
    const blocked = await newConversation(w, { status: "open" });
    expect(blocked).toMatchObject({ status: "resolved", muted: true });
  });

  test("message creates the first message, outgoing from the token's user, in the same transaction", async () => {
    const w = await world();
    const before = w.h.lastEventId();
    const c = await newConversation(w, { message: { content: "Hello Carla", echo_id: "tmp-1" } });
    expect(c.messages).toHaveLength(1);
    expect(c.messages[0]).toMatchObject({
      content: "Hello Carla",
      message_type: 1,
      sender_type: "User",
      sender_id: w.a.adminId,
      echo_id: "tmp-1",
    });
    expect(c.first_reply_created_at).toBe(NOW);
    expect(c.waiting_since).toBe(0);
    expect(w.h.events(before).map((e) => e.kind)).toEqual([
      "conversation_created",
      "message_created",
      "conversation_updated",
    ]);
    const bad = await w.h.request("POST", `${w.base}/conversations`, {
      token: w.a.adminToken,
      body: { inbox_id: w.inboxId, contact_id: w.contactId, message: { content: 7 } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: "content", message: "must be a string", code: "invalid" }]);
    expect(w.h.deps.db.query("SELECT count(*) AS n FROM conversations").get()).toEqual({ n: 1 });
  });

  test("lock_to_single_conversation returns the contact's existing conversation in that inbox", async () => {
    const w = await world();
    const locked = makeInbox(w.h, w.a.accountId, { lock: true });
    const first = await newConversation(w, { inbox_id: locked, source_id: "same" });
    const second = await newConversation(w, { inbox_id: locked, source_id: "same" });
    expect(second.id).toBe(first.id);
  });

  test("bad inputs: one field each", async () => {
    const w = await world();
    const other = await makeAccount(w.h, "Other");
    const foreignInbox = makeInbox(w.h, other.accountId);
    const emailInbox = makeInbox(w.h, w.a.accountId, { channel: "email" });
    const post = (body: Record<string, unknown>) =>
      w.h.request("POST", `${w.base}/conversations`, { token: w.a.adminToken, body });
    const base = { inbox_id: w.inboxId, contact_id: w.contactId };
    const cases: [Record<string, unknown>, number, object][] = [
      [{ contact_id: w.contactId }, 422, { field: "inbox_id", code: "required" }],
      [{ ...base, inbox_id: "abc" }, 422, { field: "inbox_id", code: "invalid" }],
      [{ ...base, inbox_id: 999 }, 404, { field: "inbox_id", code: "not_found" }],
      [{ ...base, inbox_id: foreignInbox }, 404, { field: "inbox_id", code: "not_found" }],
      [{ ...base, contact_id: 999 }, 404, { field: "contact_id", code: "not_found" }],
      [{ ...base, status: "closed" }, 422, { field: "status", code: "invalid" }],
      [{ ...base, snoozed_until: "next tuesday" }, 422, { field: "snoozed_until", code: "invalid" }],
      [{ ...base, assignee_id: 999 }, 422, { field: "assignee_id", code: "not_found" }],
      [{ ...base, assignee_id: w.outsider.userId }, 422, { field: "assignee_id", code: "invalid" }],
      [{ ...base, team_id: 999 }, 422, { field: "team_id", code: "not_found" }],
      [{ ...base, custom_attributes: "x" }, 422, { field: "custom_attributes", code: "invalid" }],
      [
        {
          inbox_id: emailInbox,
          contact_id: (
            await w.h.request("POST", `${w.base}/contacts`, {
              token: w.a.adminToken,
              body: { name: "No Email", phone_number: "+15550001111" },
            })
          ).body.payload.contact.id,
        },
        422,
        { field: "source_id", code: "required" },
      ],
      [{ inbox_id: w.inboxId, source_id: "nobody" }, 404, { field: "source_id", code: "not_found" }],
    ];
    for (const [body, status, error] of cases) {
      const r = await post(body);
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), status]);
      expect(r.body.errors[0]).toMatchObject(error);
    }
    expect(w.h.deps.db.query("SELECT count(*) AS n FROM conversations").get()).toEqual({ n: 0 });
  });

  test("authorization: 401 without token or for another account; an agent outside the inbox is 403, inside 200", async () => {
    const w = await world();
    const other = await makeAccount(w.h, "Other");
    const body = { inbox_id: w.inboxId, contact_id: w.contactId };
    expect((await w.h.request("POST", `${w.base}/conversations`, { body })).status).toBe(401);
    expect((await w.h.request("POST", `${w.base}/conversations`, { token: other.adminToken, body })).status).toBe(401);
    const refused = await w.h.request("POST", `${w.base}/conversations`, { token: w.outsider.token, body });
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toEqual([
      { field: "role", message: "You are not a member of this inbox", code: "forbidden" },
    ]);
    expect((await w.h.request("POST", `${w.base}/conversations`, { token: w.agent.token, body })).status).toBe(200);
  });
});

describe("GET /conversations/:id", () => {
  test("agents see conversations of their inboxes (403 otherwise); other accounts' ids are 404", async () => {
    const w = await world();
    const c = await newConversation(w);
    const path = `${w.base}/conversations/${c.id}`;
    expect((await w.h.request("GET", path, { token: w.agent.token })).status).toBe(200);
    expect((await w.h.request("GET", path, { token: w.outsider.token })).status).toBe(403);
    const other = await makeAccount(w.h, "Other");
    expect(
      (
        await w.h.request("GET", `/api/v1/accounts/${other.accountId}/conversations/${c.id}`, {
          token: other.adminToken,
        })
      ).status,
    ).toBe(404);
    for (const bad of ["0", "x", "99"])
      expect((await w.h.request("GET", `${w.base}/conversations/${bad}`, { token: w.a.adminToken })).status).toBe(404);
    addInboxMember(w.h, w.inboxId, w.outsider.userId);
    expect((await w.h.request("GET", path, { token: w.outsider.token })).status).toBe(200);
  });
});

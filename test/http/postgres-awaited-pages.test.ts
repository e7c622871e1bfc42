// Read-only routes on PostgreSQL, besides the message list and the contact pages
// (postgres-awaited-reads.test.ts): what the dashboard and the mobile app load at start and open
// most (a contact, the notifications, the profile, the settings lists), the public API's pages and
// the website chat's, send nothing through the synchronous bridge in place; their statements go to
// the read pool. PostgreSQL only.
import { describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";
import {
  agentSays,
  contactPath,
  messagesPath,
  newContact,
  openConversation,
  publicWorld,
  say,
} from "../helpers/public-fixtures.ts";
import { givePassword, signIn } from "../helpers/sessions.ts";
import { Visitor, widgetWorld } from "../helpers/widget-fixtures.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

describe.skipIf(TEST_ENGINE !== "postgres")("what apps load on PostgreSQL waits on nothing in place", () => {
  test("a contact with its inboxes, and the notifications page and unread count: all awaited", async () => {
    const w = await world();
    const c = await newConversation(w);
    // A member of the inbox hears of the new conversation (conversation_creation), and of being
    // assigned to it (conversation_assignment).
    const assigned = await w.h.request("POST", `${w.base}/conversations/${c.id}/assignments`, {
      token: w.a.adminToken,
      body: { assignee_id: w.agent.userId },
    });
    expect(assigned.status).toBe(200);
    await w.h.deps.bus.drain();
    await w.h.deps.bus.drain();
    w.h.deps.commits.flush();
    const read = async (path: string, token: string) => {
      const res = await w.h.app.handle(
        new Request(`http://localhost${w.base}${path}`, { headers: { api_access_token: token } }),
      );
      return { status: res.status, body: (await res.json()) as any };
    };
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const contact = await read(`/contacts/${w.contactId}`, w.a.adminToken);
      answers.push([
        contact.status,
        contact.body.payload.name,
        contact.body.payload.contact_inboxes.map((ci: any) => ci.inbox.name),
      ]);
      answers.push((await read(`/contacts/${w.contactId + 1000}`, w.a.adminToken)).status);
      const page = await read("/notifications", w.agent.token);
      answers.push([page.status, page.body.data.meta, page.body.data.payload.map((n: any) => n.notification_type)]);
      const unread = await read("/notifications/unread_count", w.agent.token);
      answers.push([unread.status, unread.body]);
    });
    expect(answers).toEqual([
      [200, "Carla Customer", ["API"]],
      404,
      [200, { unread_count: 2, count: 2, current_page: 1 }, ["conversation_assignment", "conversation_creation"]],
      [200, 2],
    ]);
    expect(blocking).toEqual([]);
  });

  test("what an app loads at start, and a contact's conversations: all awaited", async () => {
    const w = await world();
    const c = await newConversation(w);
    const admin = { token: w.a.adminToken };
    const open = [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }];
    const made = [
      await w.h.request("POST", `${w.base}/labels`, { ...admin, body: { title: "vip" } }),
      await w.h.request("POST", `${w.base}/teams`, { ...admin, body: { name: "Sales" } }),
      await w.h.request("POST", `${w.base}/canned_responses`, {
        ...admin,
        body: { short_code: "hi", content: "Hello!" },
      }),
      await w.h.request("POST", `${w.base}/custom_attribute_definitions`, {
        ...admin,
        body: { attribute_display_name: "Tier", attribute_key: "tier", attribute_model: "conversation_attribute" },
      }),
      await w.h.request("POST", `${w.base}/custom_filters`, {
        token: w.agent.token,
        body: { name: "Open", filter_type: "conversation", query: { payload: open } },
      }),
    ];
    expect(made.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    w.h.deps.commits.flush();
    const read = async (path: string, token: string) => {
      const res = await w.h.app.handle(
        new Request(`http://localhost${w.base}${path}`, { headers: { api_access_token: token } }),
      );
      return (await res.json()) as any;
    };
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      answers.push((await read("/inboxes", w.a.adminToken)).payload.map((i: { name: string }) => i.name));
      answers.push((await read("/inboxes", w.outsider.token)).payload); // a member of none
      answers.push((await read("/agents", w.agent.token)).map((a: { name: string }) => a.name));
      answers.push((await read("/labels", w.agent.token)).payload.map((l: { title: string }) => l.title));
      answers.push(
        (await read("/teams", w.agent.token)).map((t: { name: string; is_member: boolean }) => [t.name, t.is_member]),
      );
      answers.push(
        (await read("/canned_responses?search=hel", w.agent.token)).map((c: { short_code: string }) => c.short_code),
      );
      answers.push((await read("/custom_attribute_definitions", w.agent.token)).map((d: any) => d.attribute_key));
      answers.push((await read("/custom_filters", w.agent.token)).map((f: { name: string }) => f.name));
      answers.push(
        (await read(`/contacts/${w.contactId}/conversations`, w.a.adminToken)).payload.map((x: any) => x.id),
      );
      answers.push((await read(`/contacts/${w.contactId + 1000}/conversations`, w.a.adminToken)).errors[0].field);
    });
    expect(answers).toEqual([
      ["API"],
      [],
      ["Admin", "Ann Agent", "Otto Outsider"],
      ["vip"],
      [["sales", false]],
      ["hi"],
      ["tier"],
      ["Open"],
      [c.id],
      "id",
    ]);
    expect(blocking).toEqual([]);
  });

  test("the profile, by token and by session cookie, and a bad token's 401: all awaited", async () => {
    const w = await world();
    await givePassword(w.h, w.agent.userId);
    const browser = await signIn(w.h, w.agent.email);
    w.h.deps.commits.flush();
    const profile = async (headers: Record<string, string>) => {
      const res = await w.h.app.handle(new Request("http://localhost/api/v1/profile", { headers }));
      const body = (await res.json()) as { name?: string; accounts?: { name: string; role: string }[] };
      return [res.status, body.name ?? null, body.accounts?.map((a) => [a.name, a.role]) ?? null];
    };
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      answers.push(await profile({ api_access_token: w.agent.token }));
      answers.push(await profile({ cookie: browser.cookie }));
      answers.push(await profile({ api_access_token: "not a token" }));
    });
    expect(answers).toEqual([
      [200, "Ann Agent", [["Acme", "agent"]]],
      [200, "Ann Agent", [["Acme", "agent"]]],
      [401, null, null],
    ]);
    expect(blocking).toEqual([]);
  });

  test("the public API: a contact's conversations, one conversation and its messages, all awaited", async () => {
    const w = await publicWorld();
    const c = await newContact(w, { name: "Vera Visitor" });
    const conversation = await openConversation(w, c);
    await say(w, c, conversation.id, "hello");
    await agentSays(w, conversation.id, { content: "hi Vera" });
    await w.h.deps.bus.drain();
    await w.h.deps.bus.drain();
    w.h.deps.commits.flush();
    const read = async (path: string) => {
      const res = await w.h.app.handle(new Request(`http://localhost${path}`));
      return { status: res.status, body: (await res.json()) as any };
    };
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const list = await read(`${contactPath(w, c)}/conversations`);
      answers.push([list.status, list.body.map((x: any) => [x.id, x.messages.map((m: any) => m.content)])]);
      const one = await read(`${contactPath(w, c)}/conversations/${conversation.id}`);
      answers.push([one.status, one.body.id, one.body.contact.name]);
      const page = await read(messagesPath(w, c, conversation.id));
      answers.push([page.status, page.body.map((m: any) => [m.content, m.sender?.name ?? null])]);
      answers.push((await read(`${contactPath(w, c)}/conversations/${conversation.id + 1000}/messages`)).status);
      answers.push((await read(`${w.base}/contacts/not-a-contact/conversations`)).status);
    });
    expect(answers).toEqual([
      [200, [[conversation.id, ["hello", "hi Vera"]]]],
      [200, conversation.id, "Vera Visitor"],
      [
        200,
        [
          ["hello", "Vera Visitor"],
          ["hi Vera", "Admin"],
        ],
      ],
      404,
      404,
    ]);
    expect(blocking).toEqual([]);
  });

  test("the website chat: the visitor's conversation, its messages and contact, all awaited", async () => {
    const w = await widgetWorld();
    const v = new Visitor(w);
    await v.start();
    const created = await v.call("POST", "/conversations", {
      contact: { name: "Vera Visitor", email: "vera@example.com" },
      message: { content: "Hello there" },
    });
    expect(created.status).toBe(200);
    const reply = await w.h.request("POST", `${w.api}/conversations/${created.body.id}/messages`, {
      token: w.agent.token,
      body: { content: "Hi Vera" },
    });
    expect(reply.status).toBe(200);
    await w.h.deps.bus.drain();
    await w.h.deps.bus.drain();
    w.h.deps.commits.flush();
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const messages = await v.call("GET", "/messages");
      answers.push([messages.status, messages.body.map((m: { content: string }) => m.content)]);
      const current = await v.call("GET", "/conversations");
      answers.push([current.status, current.body.id, current.body.status]);
      const contact = await v.call("GET", "/contact");
      answers.push([contact.status, contact.body.name, contact.body.email]);
      const stranger = new Visitor(w, {});
      stranger.token = "not a token";
      answers.push((await stranger.call("GET", "/contact")).status);
      const elsewhere = await w.h.request("GET", "/api/v1/widget/messages?website_token=no-such-inbox");
      answers.push(elsewhere.status);
    });
    expect(answers).toEqual([
      [200, ["Hello there", "Hi Vera"]],
      [200, created.body.id, "open"],
      [200, "Vera Visitor", "vera@example.com"],
      401,
      404,
    ]);
    expect(blocking).toEqual([]);
  });
});

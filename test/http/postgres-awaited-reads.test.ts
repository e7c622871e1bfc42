// On PostgreSQL a statement through the synchronous bridge holds the whole process until the server
// answers (src/db/postgres/sync-bridge.ts); a read-only endpoint that awaits its statements on the
// read pool instead lets the process serve other requests meanwhile (src/db/reads.ts). The message
// list is the API's most frequent read: its caller's lookup, the conversation and the access check,
// the page, the meta and the senders must all be awaited (by token or session cookie), and its
// refusals too; so must the other pages clients open most (a conversation, its labels and
// participants, contacts, notifications, reports). PostgreSQL only.
import { describe, expect, test } from "bun:test";
import { sharedBridge } from "../../src/db/postgres/sync-bridge.ts";
import { newConversation, send, world } from "../helpers/conversation-fixtures.ts";
import { givePassword, signIn } from "../helpers/sessions.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

/** The event bus's own statements, which a wake-up left by earlier writes may run at any turn. */
const BUS =
  /^(SELECT last_event_id FROM listener_cursors|SELECT \* FROM events WHERE id > |SELECT \(SELECT MIN\(id\) FROM events\)|NOTIFY parley_commits; COMMIT)/;

/** What the bridge was asked to run in place while `work` ran, besides the bus's own statements. */
async function blockingDuring(work: () => Promise<void>): Promise<string[]> {
  const bridge = sharedBridge();
  const call = bridge.call;
  const blocking: string[] = [];
  bridge.call = (req) => {
    blocking.push("text" in req ? req.text.replace(/\s+/g, " ").slice(0, 80) : req.kind);
    return call.call(bridge, req);
  };
  try {
    await work();
  } finally {
    bridge.call = call;
  }
  return blocking.filter((sql) => !BUS.test(sql));
}

describe.skipIf(TEST_ENGINE !== "postgres")("read-only routes on PostgreSQL wait on nothing in place", () => {
  test("an agent's page: caller, conversation, inbox membership, page, meta and senders all awaited", async () => {
    const w = await world();
    const c = await newConversation(w);
    for (const content of ["first", "second"]) await send(w, c.id, { content });
    // The sends' listeners run and commit before the window opens.
    await w.h.deps.bus.drain();
    await w.h.deps.bus.drain();
    w.h.deps.commits.flush();
    const url = (id: number) => `http://localhost${w.base}/conversations/${id}/messages`;
    const get = (id: number, token: string) =>
      w.h.app.handle(new Request(url(id), { headers: { api_access_token: token } }));

    let body: { payload: { content: string; sender: { name: string } }[] } | undefined;
    const statuses: number[] = [];
    const blocking = await blockingDuring(async () => {
      const res = await get(c.id, w.agent.token);
      statuses.push(res.status);
      body = await res.json();
      statuses.push((await get(c.id + 1000, w.agent.token)).status); // no such conversation
      statuses.push((await get(c.id, w.outsider.token)).status); // not a member of its inbox
    });
    expect(statuses).toEqual([200, 404, 403]);
    expect(body!.payload.map((m) => [m.content, m.sender.name])).toEqual([
      ["first", "Admin"],
      ["second", "Admin"],
    ]);
    expect(blocking).toEqual([]);

    // The web app's session cookie: the session, its user, the account and the membership, one
    // statement on the pool (a session is touched in place at most once an hour).
    await givePassword(w.h, w.agent.userId);
    const browser = await signIn(w.h, w.agent.email);
    w.h.deps.commits.flush();
    let viaCookie: { status: number; names: string[] } | undefined;
    const cookie = await blockingDuring(async () => {
      const res = await w.h.app.handle(new Request(url(c.id), { headers: { cookie: browser.cookie } }));
      const page = (await res.json()) as { payload: { content: string }[] };
      viaCookie = { status: res.status, names: page.payload.map((m) => m.content) };
    });
    expect(viaCookie).toEqual({ status: 200, names: ["first", "second"] });
    expect(cookie).toEqual([]);

    // A token no user holds may be an agent bot's: the bot, the account and the inboxes it answers
    // are awaited too, for a refusal as for a bot (bridges such as Evolution API's call as one).
    const bot = await w.h.request("POST", `${w.base}/agent_bots`, {
      token: w.a.adminToken,
      body: { agent_bot: { name: "Helper Bot", outgoing_url: "https://bot.example.com/in" } },
    });
    expect(bot.status).toBe(200);
    w.h.deps.commits.flush();
    const refusals: [number, string][] = [];
    const unknown = await blockingDuring(async () => {
      for (const [id, token] of [
        [c.id, "not a token"],
        [c.id, bot.body.access_token],
      ] as const) {
        const res = await get(id, token);
        refusals.push([res.status, ((await res.json()) as { description: string }).description]);
      }
      const elsewhere = await w.h.app.handle(
        new Request("http://localhost/api/v1/accounts/999999/conversations/1/messages", {
          headers: { api_access_token: bot.body.access_token },
        }),
      );
      refusals.push([elsewhere.status, ((await elsewhere.json()) as { description: string }).description]);
    });
    expect(refusals).toEqual([
      [401, "Invalid Access Token"],
      [403, "Access to this endpoint is not authorized for bots"],
      [404, "Account not found"],
    ]);
    expect(unknown).toEqual([]);
  });

  test("contact list, search and filter: the page, its count and the contacts' inboxes all awaited", async () => {
    const w = await world();
    await newConversation(w); // gives Carla a contact inbox in the API inbox
    await w.h.deps.bus.drain();
    await w.h.deps.bus.drain();
    w.h.deps.commits.flush();
    const headers = { api_access_token: w.a.adminToken, "content-type": "application/json" };
    const read = async (path: string, init: RequestInit = {}) => {
      const res = await w.h.app.handle(new Request(`http://localhost${w.base}${path}`, { headers, ...init }));
      return { status: res.status, body: await res.json() };
    };
    const pages: { status: number; body: any }[] = [];
    const blocking = await blockingDuring(async () => {
      pages.push(await read("/contacts"));
      pages.push(await read("/contacts/search?q=carla"));
      const filter = [{ attribute_key: "email", filter_operator: "equal_to", values: ["carla@example.com"] }];
      pages.push(await read("/contacts/filter", { method: "POST", body: JSON.stringify({ payload: filter }) }));
    });
    for (const p of pages) {
      expect(p.status).toBe(200);
      expect(p.body.meta.count).toBe(1);
      expect(p.body.payload.map((c: any) => [c.name, c.contact_inboxes.map((ci: any) => ci.inbox.name)])).toEqual([
        ["Carla Customer", ["API"]],
      ]);
    }
    expect(blocking).toEqual([]);
  });

  test("an inbox summary: the caller, the cache's version and the figures all awaited, computed or kept", async () => {
    const w = await world();
    const c = await newConversation(w);
    await send(w, c.id, { content: "hello" });
    await w.h.deps.bus.drain();
    await w.h.deps.bus.drain();
    w.h.deps.commits.flush();
    const now = Math.floor(w.h.clock.nowMs() / 1000);
    const url = `http://localhost/api/v2/accounts/${w.a.accountId}/summary_reports/inbox?since=${now - 86_400}&until=${now + 86_400}`;
    const rows: { id: number; conversations_count: number }[][] = [];
    const blocking = await blockingDuring(async () => {
      for (let i = 0; i < 2; i++) {
        const res = await w.h.app.handle(new Request(url, { headers: { api_access_token: w.a.adminToken } }));
        expect(res.status).toBe(200);
        rows.push(
          ((await res.json()) as { id: number; conversations_count: number }[]).map((r) => ({
            id: r.id,
            conversations_count: r.conversations_count,
          })),
        );
      }
    });
    expect(rows).toEqual([[{ id: w.inboxId, conversations_count: 1 }], [{ id: w.inboxId, conversations_count: 1 }]]);
    expect(blocking).toEqual([]);
  });

  test("a conversation, its labels and its participants: the row and what each shows, all awaited", async () => {
    const w = await world();
    const c = await newConversation(w);
    const path = `${w.base}/conversations/${c.id}`;
    const token = { token: w.a.adminToken };
    expect(
      (await w.h.request("POST", `${path}/labels`, { ...token, body: { labels: ["vip", "billing"] } })).status,
    ).toBe(200);
    const added = await w.h.request("POST", `${path}/participants`, { ...token, body: { user_ids: [w.agent.userId] } });
    expect(added.status).toBe(200);
    await w.h.deps.bus.drain();
    await w.h.deps.bus.drain();
    w.h.deps.commits.flush();
    const read = async (suffix: string, as = w.a.adminToken) => {
      const res = await w.h.app.handle(
        new Request(`http://localhost${path}${suffix}`, { headers: { api_access_token: as } }),
      );
      return { status: res.status, body: (await res.json()) as any };
    };
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const shown = await read("");
      answers.push([shown.status, shown.body.id, shown.body.labels]);
      const labels = await read("/labels");
      answers.push([labels.status, labels.body.payload]);
      const following = await read("/participants");
      answers.push([following.status, following.body.map((u: { name: string }) => u.name)]);
      answers.push((await read("/labels", w.outsider.token)).status); // not a member of its inbox
      answers.push(
        (
          await w.h.app.handle(
            new Request(`http://localhost${w.base}/conversations/${c.id + 1000}/participants`, {
              headers: { api_access_token: w.a.adminToken },
            }),
          )
        ).status,
      );
    });
    expect(answers).toEqual([
      [200, c.id, ["vip", "billing"]],
      [200, ["vip", "billing"]],
      [200, ["Ann Agent"]],
      403,
      404,
    ]);
    expect(blocking).toEqual([]);
  });

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
});

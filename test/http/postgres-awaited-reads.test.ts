// On PostgreSQL a statement through the synchronous bridge holds the whole process until the server
// answers (src/db/postgres/sync-bridge.ts); a read-only endpoint that awaits its statements on the
// read pool instead lets the process serve other requests meanwhile (src/db/reads.ts). The message
// list is the API's most frequent read: its caller's lookup, the conversation and the access check,
// the page, the meta and the senders must all be awaited (by token or session cookie), and its
// refusals too; so must the other pages clients open most (a conversation, its labels and
// participants, contacts, notifications, reports). PostgreSQL only.
import { describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { newConversation, send, world } from "../helpers/conversation-fixtures.ts";
import { givePassword, signIn } from "../helpers/sessions.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

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
});

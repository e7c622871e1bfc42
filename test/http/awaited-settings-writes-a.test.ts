// More settings pages' writes as awaited bodies (writeTx.steps, src/db/tx.ts): labels, canned
// responses, custom attribute definitions, saved filters and dashboard apps. What each changes is
// the same on both engines, checked here on both; on PostgreSQL none of these writes sends a
// statement through the synchronous bridge in place (a label's rename aside: see its test). A
// refused write changes nothing, and another account's record is a 404 as an unknown one is.
import { describe, expect, test } from "bun:test";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { newConversation, type World, world } from "../helpers/conversation-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";

type Answer = { status: number; body: any };

/** Runs the writes one after another: what each answered, and what went through the bridge in place. */
async function writes(w: World, steps: ((r: Requester) => Promise<unknown>)[]): Promise<[unknown[], string[]]> {
  const answers: unknown[] = [];
  const request: Requester = (method, path, body, token = w.a.adminToken) =>
    w.h.request(method, `${w.base}${path}`, { token, body }) as Promise<Answer>;
  const blocking = await inPlaceDuring(async () => {
    for (const step of steps) answers.push(await step(request));
  });
  return [answers, blocking];
}

type Requester = (method: string, path: string, body?: unknown, token?: string) => Promise<Answer>;

async function listed(w: World, path: string, pick: (body: any) => unknown[]): Promise<unknown[]> {
  const r = await w.h.request("GET", `${w.base}${path}`, { token: w.a.adminToken });
  expect(r.status).toBe(200);
  return pick(r.body);
}

/** The id of a record another account made at `path`: this account's writes must answer 404 for it. */
async function theirs(w: World, path: string, body: unknown): Promise<number> {
  const b = await makeAccount(w.h, "Globex");
  const r = await w.h.request("POST", `/api/v1/accounts/${b.accountId}${path}`, { token: b.adminToken, body });
  expect(r.status).toBe(200);
  return r.body.id;
}

describe("settings writes in one awaited body each", () => {
  test("labels: create, a refused duplicate, update, a foreign 404, delete untagging a conversation", async () => {
    const w = await world();
    const foreign = await theirs(w, "/labels", { title: "theirs" });
    const c = await newConversation(w);
    let id = 0;
    const [made, madeBlocking] = await writes(w, [
      async (r) => {
        const x = await r("POST", "/labels", { title: "Billing", description: "Money" });
        id = x.body.id;
        return [x.status, x.body.title, x.body.description, x.body.color, x.body.show_on_sidebar];
      },
      async (r) => {
        const x = await r("POST", "/labels", { title: "billing" });
        return [x.status, x.body.errors];
      },
      async (r) => (await r("POST", "/labels", { title: "x" })).status,
    ]);
    expect(made).toEqual([
      [200, "billing", "Money", "#1f93ff", false],
      [422, [{ field: "title", message: "has already been taken", code: "taken" }]],
      422,
    ]);
    expect(madeBlocking).toEqual([]);
    expect(await listed(w, "/labels", (body) => body.payload.map((l: any) => l.title))).toEqual(["billing"]);

    const tag = await w.h.request("POST", `${w.base}/conversations/${c.id}/labels`, {
      token: w.a.adminToken,
      body: { labels: ["billing", "vip"] },
    });
    expect(tag.body.payload).toEqual(["billing", "vip"]);
    const [changed, changedBlocking] = await writes(w, [
      async (r) => {
        const x = await r("PATCH", `/labels/${id}`, { color: "#00FF00", show_on_sidebar: true });
        return [x.status, x.body.title, x.body.color, x.body.show_on_sidebar, x.body.description];
      },
      async (r) => (await r("PATCH", `/labels/${foreign}`, { color: "#000000" })).status,
      async (r) => (await r("DELETE", `/labels/${foreign}`)).status,
      async (r) => (await r("DELETE", `/labels/${id}`)).status,
      async (r) => (await r("DELETE", `/labels/${id}`)).status,
    ]);
    expect(changed).toEqual([[200, "billing", "#00FF00", true, "Money"], 404, 404, 200, 404]);
    expect(changedBlocking).toEqual([]);
    expect(await listed(w, "/labels", (body) => body.payload)).toEqual([]);
    const after = await w.h.request("GET", `${w.base}/conversations/${c.id}/labels`, { token: w.a.adminToken });
    expect(after.body.payload).toEqual(["vip"]);
  });

  test("labels: a rename still re-tags conversations (in place: the automation rules follow it there)", async () => {
    const w = await world();
    const c = await newConversation(w);
    const made = await w.h.request("POST", `${w.base}/labels`, { token: w.a.adminToken, body: { title: "old" } });
    await w.h.request("POST", `${w.base}/conversations/${c.id}/labels`, {
      token: w.a.adminToken,
      body: { labels: ["old"] },
    });
    const renamed = await w.h.request("PATCH", `${w.base}/labels/${made.body.id}`, {
      token: w.a.adminToken,
      body: { title: "New" },
    });
    expect([renamed.status, renamed.body.title]).toEqual([200, "new"]);
    const after = await w.h.request("GET", `${w.base}/conversations/${c.id}/labels`, { token: w.a.adminToken });
    expect(after.body.payload).toEqual(["new"]);
  });

  test("canned responses: create, a refused duplicate, update, a foreign 404, delete", async () => {
    const w = await world();
    const foreign = await theirs(w, "/canned_responses", { short_code: "hi", content: "Hello" });
    let id = 0;
    const [answers, blocking] = await writes(w, [
      async (r) => {
        const x = await r("POST", "/canned_responses", { short_code: "thanks", content: "Thank you!" });
        id = x.body.id;
        return [x.status, x.body.short_code, x.body.content];
      },
      async (r) => {
        const x = await r("POST", "/canned_responses", { short_code: "THANKS", content: "Again" });
        return [x.status, x.body.errors];
      },
      async (r) => (await r("POST", "/canned_responses", { short_code: "bye", content: "Bye" })).status,
      async (r) => {
        const x = await r("PATCH", `/canned_responses/${id}`, { content: "Many thanks" });
        return [x.status, x.body.short_code, x.body.content];
      },
      async (r) => (await r("PATCH", `/canned_responses/${foreign}`, { content: "Mine now" })).status,
      async (r) => (await r("DELETE", `/canned_responses/${foreign}`)).status,
      async (r) => (await r("DELETE", `/canned_responses/${id}`)).status,
    ]);
    expect(answers).toEqual([
      [200, "thanks", "Thank you!"],
      [422, [{ field: "short_code", message: "has already been taken", code: "taken" }]],
      200,
      [200, "thanks", "Many thanks"],
      404,
      404,
      200,
    ]);
    expect(blocking).toEqual([]);
    expect(await listed(w, "/canned_responses", (body) => body.map((x: any) => x.short_code))).toEqual(["bye"]);
  });

  test("custom attribute definitions: create, a refused duplicate key, update, a foreign 404, delete", async () => {
    const w = await world();
    const definition = { attribute_display_name: "Plan", attribute_key: "plan", attribute_model: "contact_attribute" };
    const path = "/custom_attribute_definitions";
    const foreign = await theirs(w, path, definition);
    let id = 0;
    const [answers, blocking] = await writes(w, [
      async (r) => {
        const x = await r("POST", path, definition);
        id = x.body.id;
        return [x.status, x.body.attribute_key, x.body.attribute_model, x.body.attribute_display_type];
      },
      async (r) => {
        const x = await r("POST", path, { ...definition, attribute_display_name: "Plan again" });
        return [x.status, x.body.errors];
      },
      async (r) => (await r("POST", path, { ...definition, attribute_key: "tier" })).status,
      async (r) => {
        const x = await r("PATCH", `${path}/${id}`, { attribute_display_name: "Pricing plan" });
        return [x.status, x.body.attribute_display_name, x.body.attribute_key];
      },
      async (r) => (await r("PATCH", `${path}/${foreign}`, { attribute_display_name: "Ours" })).status,
      async (r) => (await r("DELETE", `${path}/${foreign}`)).status,
      async (r) => (await r("DELETE", `${path}/${id}`)).status,
    ]);
    expect(answers).toEqual([
      [200, "plan", "contact_attribute", "text"],
      [422, [{ field: "attribute_key", message: "has already been taken", code: "taken" }]],
      200,
      [200, "Pricing plan", "plan"],
      404,
      404,
      204,
    ]);
    expect(blocking).toEqual([]);
    const keys = await listed(w, `${path}?attribute_model=contact_attribute`, (body) =>
      body.map((x: any) => x.attribute_key),
    );
    expect(keys).toEqual(["tier"]);
  });

  test("saved filters: create, a refused one, update, another user's 404, delete", async () => {
    const w = await world();
    const payload = [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }];
    const agents = await w.h.request("POST", `${w.base}/custom_filters`, {
      token: w.agent.token,
      body: { name: "Agent's", query: { payload } },
    });
    let id = 0;
    const [answers, blocking] = await writes(w, [
      async (r) => {
        const x = await r("POST", "/custom_filters", {
          name: "Open ones",
          filter_type: "conversation",
          query: { payload },
        });
        id = x.body.id;
        return [x.status, x.body.name, x.body.filter_type, x.body.query];
      },
      async (r) => {
        const x = await r("POST", "/custom_filters", { name: "No query" });
        return [x.status, x.body.errors];
      },
      async (r) => {
        const x = await r("PATCH", `/custom_filters/${id}`, { name: "Still open" });
        return [x.status, x.body.name, x.body.query];
      },
      async (r) => (await r("PATCH", `/custom_filters/${agents.body.id}`, { name: "Mine" })).status,
      async (r) => (await r("DELETE", `/custom_filters/${agents.body.id}`)).status,
      async (r) => (await r("POST", "/custom_filters", { name: "Second", query: { payload } })).status,
      async (r) => (await r("DELETE", `/custom_filters/${id}`)).status,
    ]);
    expect(answers).toEqual([
      [200, "Open ones", "conversation", { payload }],
      [422, [{ field: "query", message: "can't be blank", code: "required" }]],
      [200, "Still open", { payload }],
      404,
      404,
      200,
      200,
    ]);
    expect(blocking).toEqual([]);
    expect(await listed(w, "/custom_filters", (body) => body.map((x: any) => x.name))).toEqual(["Second"]);
  });

  test("dashboard apps: create, a refused one, update, a foreign 404, delete", async () => {
    const w = await world();
    const content = [{ type: "frame", url: "https://crm.example/frame" }];
    const foreign = await theirs(w, "/dashboard_apps", { title: "Theirs", content });
    let id = 0;
    const [answers, blocking] = await writes(w, [
      async (r) => {
        const x = await r("POST", "/dashboard_apps", { title: "CRM", content });
        id = x.body.id;
        return [x.status, x.body.title, x.body.content, x.body.show_on_sidebar];
      },
      async (r) => {
        const x = await r("POST", "/dashboard_apps", { title: "Bad", content: [{ type: "frame", url: "ftp://x" }] });
        return [x.status, x.body.errors];
      },
      async (r) => {
        const x = await r("PATCH", `/dashboard_apps/${id}`, { title: "CRM 2", show_on_sidebar: true });
        return [x.status, x.body.title, x.body.content, x.body.show_on_sidebar];
      },
      async (r) => (await r("PATCH", `/dashboard_apps/${foreign}`, { title: "Ours" })).status,
      async (r) => (await r("DELETE", `/dashboard_apps/${foreign}`)).status,
      async (r) => (await r("POST", "/dashboard_apps", { title: "Wiki", content })).status,
      async (r) => (await r("DELETE", `/dashboard_apps/${id}`)).status,
    ]);
    expect(answers).toEqual([
      [200, "CRM", content, false],
      [
        422,
        [
          {
            field: "content[0].url",
            message: "must be an http(s) URL of at most 2048 characters",
            code: "invalid",
          },
        ],
      ],
      [200, "CRM 2", content, true],
      404,
      404,
      200,
      204,
    ]);
    expect(blocking).toEqual([]);
    expect(await listed(w, "/dashboard_apps", (body) => body.map((x: any) => x.title))).toEqual(["Wiki"]);
  });
});

// Labels: the exact label record, Chatwoot's title rules, the authorization matrix, tenant
// isolation, and the re-tagging a rename or delete does on conversations and contacts.
import { describe, expect, test } from "bun:test";
import { makeAccount } from "../helpers/factories.ts";
import { makeInbox } from "../helpers/directory-fixtures.ts";
import { newConversation, world, type World } from "../helpers/conversation-fixtures.ts";

const create = (w: World, body: unknown, token = w.a.adminToken) =>
  w.h.request("POST", `${w.base}/labels`, { token, body });
const list = async (w: World) => (await w.h.request("GET", `${w.base}/labels`, { token: w.a.adminToken })).body.payload;
const conversationLabels = async (w: World, id: number) =>
  (await w.h.request("GET", `${w.base}/conversations/${id}/labels`, { token: w.a.adminToken })).body.payload;
const tagConversation = (w: World, id: number, labels: string[]) =>
  w.h.request("POST", `${w.base}/conversations/${id}/labels`, { token: w.a.adminToken, body: { labels } });
const tagContact = (w: World, id: number, labels: string[]) =>
  w.h.request("POST", `${w.base}/contacts/${id}/labels`, { token: w.a.adminToken, body: { labels } });
const contactLabels = async (w: World, id: number) =>
  (await w.h.request("GET", `${w.base}/contacts/${id}/labels`, { token: w.a.adminToken })).body.payload;

describe("POST /labels", () => {
  test("answers the bare label with an integer id; the title is lower-cased", async () => {
    const w = await world();
    const r = await create(w, {
      title: "Billing",
      description: "Money questions",
      color: "#FF0000",
      show_on_sidebar: true,
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: expect.any(Number),
      title: "billing",
      description: "Money questions",
      color: "#FF0000",
      show_on_sidebar: true,
    });
    expect(Number.isInteger(r.body.id)).toBe(true);
  });

  test("defaults: description null, color #1f93ff, show_on_sidebar false; fields may nest under label; forms work", async () => {
    const w = await world();
    const nested = await create(w, { label: { title: "vip" } });
    expect(nested.body).toEqual({
      id: nested.body.id,
      title: "vip",
      description: null,
      color: "#1f93ff",
      show_on_sidebar: false,
    });
    const form = await w.h.request("POST", `${w.base}/labels`, {
      token: w.a.adminToken,
      form: { "label[title]": "urgent_2", "label[show_on_sidebar]": "true" },
    });
    expect(form.body).toEqual({
      id: form.body.id,
      title: "urgent_2",
      description: null,
      color: "#1f93ff",
      show_on_sidebar: true,
    });
    expect(w.h.events().filter((e) => e.kind.startsWith("label"))).toEqual([]);
  });

  test.each([
    [{}, "title", "required"],
    [{ title: "   " }, "title", "required"],
    [{ title: "a" }, "title", "invalid"],
    [{ title: "two words" }, "title", "invalid"],
    [{ title: "-dash" }, "title", "invalid"],
    [{ title: "x!" }, "title", "invalid"],
    [{ title: 12 }, "title", "invalid"],
    [{ title: "ok", color: "red" }, "color", "invalid"],
    [{ title: "ok", color: "#12345" }, "color", "invalid"],
    [{ title: "ok", show_on_sidebar: "maybe" }, "show_on_sidebar", "invalid"],
    [{ title: "ok", description: 5 }, "description", "invalid"],
  ])("%j → 422 on %s (%s), nothing stored", async (body, field, code) => {
    const w = await world();
    const r = await create(w, body);
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([[field, code]]);
    expect(await list(w)).toEqual([]);
  });

  test("unicode letters and digits are titles; a title taken in any case is 422 taken", async () => {
    const w = await world();
    expect((await create(w, { title: "Überfällig-2" })).body.title).toBe("überfällig-2");
    expect((await create(w, { title: "billing" })).status).toBe(200);
    const dup = await create(w, { title: "BILLING" });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual([{ field: "title", message: "has already been taken", code: "taken" }]);
    expect((await list(w)).map((l: { title: string }) => l.title)).toEqual(["billing", "überfällig-2"]);
  });
});

describe("list, show, update, delete", () => {
  test("list is ordered by title and open to agents; show and update answer the bare label", async () => {
    const w = await world();
    for (const title of ["zeta", "alpha", "mid"]) await create(w, { title });
    const agentList = await w.h.request("GET", `${w.base}/labels`, { token: w.agent.token });
    expect(agentList.status).toBe(200);
    expect(agentList.body.payload.map((l: { title: string }) => l.title)).toEqual(["alpha", "mid", "zeta"]);
    const id = agentList.body.payload[0].id;
    const show = await w.h.request("GET", `${w.base}/labels/${id}`, { token: w.a.adminToken });
    expect(show.body).toEqual({ id, title: "alpha", description: null, color: "#1f93ff", show_on_sidebar: false });
    const upd = await w.h.request("PATCH", `${w.base}/labels/${id}`, {
      token: w.a.adminToken,
      body: { description: "First", color: "#00ff00" },
    });
    expect(upd.body).toEqual({ id, title: "alpha", description: "First", color: "#00ff00", show_on_sidebar: false });
    const taken = await w.h.request("PATCH", `${w.base}/labels/${id}`, {
      token: w.a.adminToken,
      body: { title: "Zeta" },
    });
    expect(taken.status).toBe(422);
    expect(taken.body.errors[0]).toMatchObject({ field: "title", code: "taken" });
  });

  test("authorization matrix: agents read the list only; no token 401; another account's token 401", async () => {
    const w = await world();
    const { id } = (await create(w, { title: "vip" })).body;
    const other = await makeAccount(w.h, "Other");
    const cases: [string, string, unknown][] = [
      ["GET", `${w.base}/labels/${id}`, undefined],
      ["POST", `${w.base}/labels`, { title: "new" }],
      ["PATCH", `${w.base}/labels/${id}`, { title: "renamed" }],
      ["DELETE", `${w.base}/labels/${id}`, undefined],
    ];
    for (const [method, path, body] of cases) {
      expect((await w.h.request(method, path, { token: w.agent.token, body })).status).toBe(403);
      expect((await w.h.request(method, path, { body })).status).toBe(401);
      expect((await w.h.request(method, path, { token: other.adminToken, body })).status).toBe(401);
    }
    expect((await w.h.request("GET", `${w.base}/labels`)).status).toBe(401);
    expect(await list(w)).toEqual([{ id, title: "vip", description: null, color: "#1f93ff", show_on_sidebar: false }]);
  });

  test("another account's label is 404 and is left alone", async () => {
    const w = await world();
    const other = await makeAccount(w.h, "Other");
    const theirs = await w.h.request("POST", `/api/v1/accounts/${other.accountId}/labels`, {
      token: other.adminToken,
      body: { title: "theirs" },
    });
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const r = await w.h.request(method, `${w.base}/labels/${theirs.body.id}`, {
        token: w.a.adminToken,
        body: method === "PATCH" ? { title: "mine" } : undefined,
      });
      expect(r.status).toBe(404);
      expect(r.body.errors).toEqual([
        { field: "id", message: `no label ${theirs.body.id} in this account`, code: "not_found" },
      ]);
    }
    expect((await w.h.request("GET", `${w.base}/labels/abc`, { token: w.a.adminToken })).status).toBe(404);
    const still = await w.h.request("GET", `/api/v1/accounts/${other.accountId}/labels`, { token: other.adminToken });
    expect(still.body.payload.map((l: { title: string }) => l.title)).toEqual(["theirs"]);
  });
});

describe("renaming and deleting re-tag conversations and contacts", () => {
  test("a rename replaces the title in place (any case) and records conversation_updated with label_list", async () => {
    const w = await world();
    const { id } = (await create(w, { title: "billing" })).body;
    const c1 = await newConversation(w);
    const c2 = await newConversation(w);
    await tagConversation(w, c1.id, ["vip", "Billing", "late"]);
    await tagConversation(w, c2.id, ["finance", "billing"]);
    await tagContact(w, w.contactId, ["billing", "vip"]);
    w.h.clock.advance(5000);
    const before = w.h.lastEventId();
    const r = await w.h.request("PATCH", `${w.base}/labels/${id}`, {
      token: w.a.adminToken,
      body: { title: "Finance" },
    });
    expect(r.body.title).toBe("finance");
    expect(await conversationLabels(w, c1.id)).toEqual(["vip", "finance", "late"]);
    expect(await conversationLabels(w, c2.id)).toEqual(["finance"]);
    expect(await contactLabels(w, w.contactId)).toEqual(["finance", "vip"]);
    const events = w.h.events(before);
    expect(events.map((e) => [e.kind, e.conversationId, e.actor])).toEqual([
      ["conversation_updated", expect.any(Number), { type: "user", id: w.a.adminId }],
      ["conversation_updated", expect.any(Number), { type: "user", id: w.a.adminId }],
    ]);
    expect(events[0]!.payload.id).toBe(c1.id);
    expect(events[0]!.payload.labels).toEqual(["vip", "finance", "late"]);
    expect(events[0]!.payload.changed_attributes).toEqual([
      { label_list: { previous_value: ["vip", "Billing", "late"], current_value: ["vip", "finance", "late"] } },
      { updated_at: { previous_value: expect.any(String), current_value: "2026-01-05T09:00:05.000Z" } },
    ]);
    expect((events[1]!.payload.changed_attributes as unknown[])[0]).toEqual({
      label_list: { previous_value: ["finance", "billing"], current_value: ["finance"] },
    });
  });

  test("a change that keeps the title re-tags nothing", async () => {
    const w = await world();
    const { id } = (await create(w, { title: "billing" })).body;
    const c = await newConversation(w);
    await tagConversation(w, c.id, ["billing"]);
    const before = w.h.lastEventId();
    await w.h.request("PATCH", `${w.base}/labels/${id}`, {
      token: w.a.adminToken,
      body: { title: "BILLING", color: "#000000" },
    });
    expect(w.h.events(before)).toEqual([]);
    expect(await conversationLabels(w, c.id)).toEqual(["billing"]);
  });

  test("a delete takes the title off conversations and contacts; the label is gone", async () => {
    const w = await world();
    const { id } = (await create(w, { title: "spam" })).body;
    const c = await newConversation(w);
    await tagConversation(w, c.id, ["spam", "vip"]);
    await tagContact(w, w.contactId, ["SPAM"]);
    const before = w.h.lastEventId();
    const r = await w.h.request("DELETE", `${w.base}/labels/${id}`, { token: w.a.adminToken });
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
    expect(await conversationLabels(w, c.id)).toEqual(["vip"]);
    expect(await contactLabels(w, w.contactId)).toEqual([]);
    const events = w.h.events(before);
    expect(events.map((e) => e.kind)).toEqual(["conversation_updated"]);
    expect((events[0]!.payload.changed_attributes as unknown[])[0]).toEqual({
      label_list: { previous_value: ["spam", "vip"], current_value: ["vip"] },
    });
    expect(await list(w)).toEqual([]);
    expect((await w.h.request("GET", `${w.base}/labels/${id}`, { token: w.a.adminToken })).status).toBe(404);
  });

  test("another account's conversations keep the title", async () => {
    const w = await world();
    const other = await makeAccount(w.h, "Other");
    const otherBase = `/api/v1/accounts/${other.accountId}`;
    const inbox = makeInbox(w.h, other.accountId, { name: "B" });
    const contact = await w.h.request("POST", `${otherBase}/contacts`, {
      token: other.adminToken,
      body: { name: "B", email: "b@example.com" },
    });
    const conv = await w.h.request("POST", `${otherBase}/conversations`, {
      token: other.adminToken,
      body: { inbox_id: inbox, contact_id: contact.body.payload.contact.id },
    });
    await w.h.request("POST", `${otherBase}/conversations/${conv.body.id}/labels`, {
      token: other.adminToken,
      body: { labels: ["billing"] },
    });
    const { id } = (await create(w, { title: "billing" })).body;
    await w.h.request("PATCH", `${w.base}/labels/${id}`, { token: w.a.adminToken, body: { title: "money" } });
    await w.h.request("DELETE", `${w.base}/labels/${id}`, { token: w.a.adminToken });
    const theirs = await w.h.request("GET", `${otherBase}/conversations/${conv.body.id}/labels`, {
      token: other.adminToken,
    });
    expect(theirs.body.payload).toEqual(["billing"]);
  });
});

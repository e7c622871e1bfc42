// Chatwoot's assignable agents: the members common to every inbox asked about, then the account's
// administrators; the same Agent records as GET /agents.
import { describe, expect, test } from "bun:test";
import { addInboxMember, makeAccount, makeInbox, makeMember } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";

async function setup() {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const b = await makeAccount(h, "Globex");
  const zoe = await makeMember(h, a.accountId, "agent", "Zoe");
  const bea = await makeMember(h, a.accountId, "agent", "Bea");
  const cal = await makeMember(h, a.accountId, "agent", "Cal");
  const ada = await makeMember(h, a.accountId, "administrator", "Ada");
  const shop = await makeInbox(h, a, { name: "Shop" });
  const mail = await makeInbox(h, a, { name: "Mail" });
  const foreign = await makeInbox(h, b, { name: "Globex" });
  await addInboxMember(h, a, shop.id, zoe.userId, bea.userId, ada.userId);
  await addInboxMember(h, a, mail.id, zoe.userId);
  const base = `/api/v1/accounts/${a.accountId}`;
  return { h, a, b, zoe, bea, cal, ada, shop, mail, foreign, base };
}

const ids = (body: unknown) => (body as { payload: { id: number }[] }).payload.map((x) => x.id);

describe("GET /assignable_agents", () => {
  test("one inbox: its members by name, then the administrators who are not members", async () => {
    const { h, a, zoe, bea, ada, shop, base } = await setup();
    const r = await h.request("GET", `${base}/assignable_agents?inbox_ids[]=${shop.id}`, { token: a.adminToken });
    expect(r.status).toBe(200);
    // Members Ada (an administrator), Bea, Zoe; then the account's first administrator, who is no member.
    expect(ids(r.body)).toEqual([ada.userId, bea.userId, zoe.userId, a.adminId]);
  });

  test("several inboxes: only the agents who are members of all of them, then the administrators", async () => {
    const { h, a, zoe, ada, shop, mail, base } = await setup();
    const r = await h.request("GET", `${base}/assignable_agents?inbox_ids[]=${shop.id}&inbox_ids[]=${mail.id}`, {
      token: a.adminToken,
    });
    expect(r.status).toBe(200);
    // Administrators by name: Ada, then Admin (the account's first).
    expect(ids(r.body)).toEqual([zoe.userId, ada.userId, a.adminId]);
    const once = await h.request("GET", `${base}/assignable_agents?inbox_ids[]=${mail.id}&inbox_ids[]=${mail.id}`, {
      token: a.adminToken,
    });
    expect(ids(once.body)).toEqual([zoe.userId, ada.userId, a.adminId]);
  });

  test("each entry is the agent record GET /agents shows", async () => {
    const { h, a, shop, base } = await setup();
    const listed = (await h.request("GET", `${base}/agents`, { token: a.adminToken })).body as { id: number }[];
    const r = await h.request("GET", `${base}/assignable_agents?inbox_ids[]=${shop.id}`, { token: a.adminToken });
    for (const agent of (r.body as { payload: { id: number }[] }).payload)
      expect(agent).toEqual(listed.find((x) => x.id === agent.id)!);
  });

  test("an agent may ask about inboxes they work, not about others", async () => {
    const { h, zoe, cal, bea, ada, a, shop, mail, base } = await setup();
    const mine = await h.request("GET", `${base}/assignable_agents?inbox_ids[]=${shop.id}`, { token: bea.token });
    expect(mine.status).toBe(200);
    expect(ids(mine.body)).toEqual([ada.userId, bea.userId, zoe.userId, a.adminId]);
    const notMine = await h.request("GET", `${base}/assignable_agents?inbox_ids[]=${shop.id}&inbox_ids[]=${mail.id}`, {
      token: bea.token,
    });
    expect(notMine.status).toBe(403);
    expect(
      (await h.request("GET", `${base}/assignable_agents?inbox_ids[]=${shop.id}`, { token: cal.token })).status,
    ).toBe(403);
  });

  test("another account's inbox is not found; its token cannot ask here", async () => {
    const { h, a, b, shop, foreign, base } = await setup();
    const r = await h.request("GET", `${base}/assignable_agents?inbox_ids[]=${shop.id}&inbox_ids[]=${foreign.id}`, {
      token: a.adminToken,
    });
    expect(r.status).toBe(404);
    expect(r.body.errors[0]).toMatchObject({ field: "id", code: "not_found" });
    const stranger = await h.request("GET", `${base}/assignable_agents?inbox_ids[]=${shop.id}`, {
      token: b.adminToken,
    });
    expect(stranger.status).toBe(401);
  });

  test("missing, empty, malformed or too many inbox ids are a 422 naming inbox_ids", async () => {
    const { h, a, base } = await setup();
    const tooMany = Array.from({ length: 101 }, (_, i) => `inbox_ids[]=${i + 1}`).join("&");
    for (const qs of ["", "?inbox_ids[]=", "?inbox_ids[]=abc", "?inbox_ids[]=1.5", "?inbox_ids[]=-3", `?${tooMany}`]) {
      const r = await h.request("GET", `${base}/assignable_agents${qs}`, { token: a.adminToken });
      expect({ qs: qs.slice(0, 30), status: r.status }).toEqual({ qs: qs.slice(0, 30), status: 422 });
      expect(r.body.errors[0].field).toBe("inbox_ids");
    }
  });
});

describe("GET /inboxes/:id/assignable_agents", () => {
  test("the same answer as assignable_agents for that one inbox; 404 for a stranger's inbox", async () => {
    const { h, a, zoe, ada, mail, foreign, base } = await setup();
    const r = await h.request("GET", `${base}/inboxes/${mail.id}/assignable_agents`, { token: a.adminToken });
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual([zoe.userId, ada.userId, a.adminId]);
    for (const id of [foreign.id, 9999, "abc"]) {
      const other = await h.request("GET", `${base}/inboxes/${id}/assignable_agents`, { token: a.adminToken });
      expect(other.status).toBe(404);
      expect(other.body.errors[0]).toMatchObject({ field: "id", code: "not_found" });
    }
  });
});

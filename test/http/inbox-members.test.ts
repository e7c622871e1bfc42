// Spec endpoint 4 (POST /inbox_members) and Chatwoot's show/update/delete siblings.
import { describe, expect, test } from "bun:test";
import { addInboxMember, makeAccount, makeInbox, makeMember } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";
import { readNow } from "../../src/db/reads.ts";

async function setup() {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const b = await makeAccount(h, "Globex");
  const zoe = await makeMember(h, a.accountId, "agent", "Zoe");
  const bea = await makeMember(h, a.accountId, "agent", "Bea");
  const inbox = await makeInbox(h, a);
  return { h, a, b, zoe, bea, inbox, base: `/api/v1/accounts/${a.accountId}/inbox_members` };
}

const ids = (payload: { id: number }[]) => payload.map((x) => x.id);

describe("POST /inbox_members", () => {
  test("adds agents and answers the inbox's members after the change as Agent records, by name", async () => {
    const { h, a, zoe, bea, inbox, base } = await setup();
    await addInboxMember(h, a, inbox.id, zoe.userId);
    const r = await h.request("POST", base, {
      token: a.adminToken,
      body: { inbox_id: inbox.id, user_ids: [bea.userId, zoe.userId] },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      payload: [
        {
          id: bea.userId,
          account_id: a.accountId,
          availability_status: "offline",
          auto_offline: true,
          confirmed: true,
          email: bea.email,
          provider: "email",
          available_name: "Bea",
          name: "Bea",
          role: "agent",
          thumbnail: "",
          custom_role_id: null,
        },
        expect.objectContaining({ id: zoe.userId, name: "Zoe", role: "agent" }),
      ],
    });
    expect(readNow(h.deps.repos.inboxes.members.readMemberIds(inbox.id))).toEqual(
      [zoe.userId, bea.userId].sort((x, y) => x - y),
    );
  });

  test("form bodies with user_ids[] and ids as strings work", async () => {
    const { h, a, bea, inbox, base } = await setup();
    const body = new URLSearchParams([
      ["inbox_id", String(inbox.id)],
      ["user_ids[]", String(bea.userId)],
    ]).toString();
    const r = await h.request("POST", base, {
      token: a.adminToken,
      body,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(r.status).toBe(200);
    expect(ids(r.body.payload)).toEqual([bea.userId]);
  });

  test("user ids that are not agents of this account are refused with 422 naming them; nothing changes", async () => {
    const { h, a, b, bea, inbox, base } = await setup();
    const r = await h.request("POST", base, {
      token: a.adminToken,
      body: { inbox_id: inbox.id, user_ids: [bea.userId, b.adminId, 9999] },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      { field: "user_ids", message: `are not agents of this account: ${b.adminId}, 9999`, code: "invalid" },
    ]);
    expect(readNow(h.deps.repos.inboxes.members.readMemberIds(inbox.id))).toEqual([]);
  });

  test("bad bodies: missing inbox_id or user_ids, ids that are not ids", async () => {
    const { h, a, inbox, base } = await setup();
    const cases: [unknown, { field: string; code: string }[]][] = [
      [{ user_ids: [1] }, [{ field: "inbox_id", code: "required" }]],
      [{ inbox_id: inbox.id }, [{ field: "user_ids", code: "required" }]],
      [
        { inbox_id: inbox.id, user_ids: ["x", 0] },
        [
          { field: "user_ids[0]", code: "invalid" },
          { field: "user_ids[1]", code: "invalid" },
        ],
      ],
      [{ inbox_id: inbox.id, user_ids: 3 }, [{ field: "user_ids", code: "invalid" }]],
    ];
    for (const [body, errors] of cases) {
      const r = await h.request("POST", base, { token: a.adminToken, body });
      expect(r.status).toBe(422);
      expect(r.body.errors.map((e: { field: string; code: string }) => ({ field: e.field, code: e.code }))).toEqual(
        errors,
      );
    }
  });

  test("an unknown inbox, or another account's, is 404 and changes nothing", async () => {
    const { h, a, b, bea, base } = await setup();
    const theirs = await makeInbox(h, b);
    for (const inboxId of [theirs.id, 9999, "abc"]) {
      const r = await h.request("POST", base, {
        token: a.adminToken,
        body: { inbox_id: inboxId, user_ids: [bea.userId] },
      });
      expect(r.status).toBe(404);
      expect(r.body.errors[0]).toMatchObject({ field: "id", code: "not_found" });
    }
    expect(readNow(h.deps.repos.inboxes.members.readMemberIds(theirs.id))).toEqual([]);
  });
});

describe("GET /inbox_members/:inbox_id, PATCH and DELETE", () => {
  test("show: administrators and member agents see the members; other agents 403", async () => {
    const { h, a, zoe, bea, inbox, base } = await setup();
    await addInboxMember(h, a, inbox.id, zoe.userId);
    const admin = await h.request("GET", `${base}/${inbox.id}`, { token: a.adminToken });
    expect(admin.status).toBe(200);
    expect(ids(admin.body.payload)).toEqual([zoe.userId]);
    expect((await h.request("GET", `${base}/${inbox.id}`, { token: zoe.token })).status).toBe(200);
    expect((await h.request("GET", `${base}/${inbox.id}`, { token: bea.token })).status).toBe(403);
  });

  test("PATCH makes the member set exactly user_ids; an empty list empties it", async () => {
    const { h, a, zoe, bea, inbox, base } = await setup();
    await addInboxMember(h, a, inbox.id, zoe.userId);
    const r = await h.request("PATCH", base, {
      token: a.adminToken,
      body: { inbox_id: inbox.id, user_ids: [bea.userId, a.adminId] },
    });
    expect(r.status).toBe(200);
    expect(ids(r.body.payload)).toEqual([a.adminId, bea.userId]); // "Admin" sorts before "Bea"
    const empty = await h.request("PATCH", base, {
      token: a.adminToken,
      body: { inbox_member: { inbox_id: inbox.id, user_ids: [] } },
    });
    expect(empty.body).toEqual({ payload: [] });
    expect(readNow(h.deps.repos.inboxes.members.readMemberIds(inbox.id))).toEqual([]);
  });

  test("DELETE removes the given agents and answers the members left", async () => {
    const { h, a, zoe, bea, inbox, base } = await setup();
    await addInboxMember(h, a, inbox.id, zoe.userId, bea.userId);
    const r = await h.request("DELETE", base, {
      token: a.adminToken,
      body: { inbox_id: inbox.id, user_ids: [zoe.userId] },
    });
    expect(r.status).toBe(200);
    expect(ids(r.body.payload)).toEqual([bea.userId]);
  });

  test("authorization: no token 401, other account 401, agents 403 on every write, members unchanged", async () => {
    const { h, a, b, zoe, bea, inbox, base } = await setup();
    await addInboxMember(h, a, inbox.id, zoe.userId);
    const body = { inbox_id: inbox.id, user_ids: [bea.userId] };
    for (const method of ["POST", "PATCH", "DELETE"]) {
      expect((await h.request(method, base, { body })).status).toBe(401);
      expect((await h.request(method, base, { token: b.adminToken, body })).status).toBe(401);
      // Even a member of the inbox may not change its members.
      expect((await h.request(method, base, { token: zoe.token, body })).status).toBe(403);
    }
    expect((await h.request("GET", `${base}/${inbox.id}`, { token: b.adminToken })).status).toBe(401);
    expect(readNow(h.deps.repos.inboxes.members.readMemberIds(inbox.id))).toEqual([zoe.userId]);
  });

  test("another account's inbox id is 404 for show", async () => {
    const { h, a, b, base } = await setup();
    const theirs = await makeInbox(h, b);
    expect((await h.request("GET", `${base}/${theirs.id}`, { token: a.adminToken })).status).toBe(404);
  });
});

// Canned responses through HTTP, with Chatwoot's shapes: CRUD by any member, search over short code
// and content (short codes starting with the text first), a short code unique whatever its case,
// bad input refused field by field, and another account's responses out of reach. The Chatwoot
// mobile app's calls are replayed as it makes them (list, then search as the agent types "/ship").
import { describe, expect, test } from "bun:test";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";

async function setup() {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const b = await makeAccount(h, "Globex");
  const agent = await makeMember(h, a.accountId, "agent", "Ann");
  const base = `/api/v1/accounts/${a.accountId}/canned_responses`;
  const create = (body: unknown, token = agent.token) => h.request("POST", base, { token, body });
  return { h, a, b, agent, base, create };
}

const count = (h: ReturnType<typeof createHarness>) =>
  (h.deps.db.query("SELECT count(*) AS n FROM canned_responses").get() as { n: number }).n;

describe("canned responses", () => {
  test("an agent creates, lists, changes and deletes; the records are Chatwoot's", async () => {
    const { h, a, base, create, agent } = await setup();
    const r = await create({ canned_response: { short_code: "shipping", content: "Orders ship within 2 days." } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: r.body.id,
      account_id: a.accountId,
      short_code: "shipping",
      content: "Orders ship within 2 days.",
      created_at: 1767603600,
      updated_at: 1767603600,
    });
    await create({ short_code: "refund", content: "Refunds take 5 days." });
    expect(
      (await h.request("GET", base, { token: agent.token })).body.map((c: { short_code: string }) => c.short_code),
    ).toEqual(["refund", "shipping"]);

    const changed = await h.request("PUT", `${base}/${r.body.id}`, {
      token: agent.token,
      body: { content: "Orders ship the same day." },
    });
    expect([changed.status, changed.body.short_code, changed.body.content]).toEqual([
      200,
      "shipping",
      "Orders ship the same day.",
    ]);
    expect((await h.request("DELETE", `${base}/${r.body.id}`, { token: agent.token })).status).toBe(200);
    expect(
      (await h.request("GET", base, { token: agent.token })).body.map((c: { short_code: string }) => c.short_code),
    ).toEqual(["refund"]);
  });

  test("the mobile app: the list, then a search as the agent types; short codes starting with it first", async () => {
    const { h, base, create, agent } = await setup();
    await create({ short_code: "thanks", content: "Thanks for the shipping details!" });
    await create({ short_code: "ship", content: "It ships today." });
    await create({ short_code: "delay", content: "Sorry, shipping is late." });
    expect((await h.request("GET", base, { token: agent.token })).body).toHaveLength(3);
    const found = await h.request("GET", `${base}?search=SHIP`, { token: agent.token });
    expect(found.body.map((c: { short_code: string }) => c.short_code)).toEqual(["ship", "delay", "thanks"]);
    expect((await h.request("GET", `${base}?search=%25`, { token: agent.token })).body).toEqual([]); // a literal %, not a wildcard
  });

  test("bad input: one 422 item per field, a taken short code in any case, nothing written", async () => {
    const { h, create } = await setup();
    await create({ short_code: "Ship", content: "x" });
    const cases: [unknown, { field: string; message: string; code: string }[]][] = [
      [
        {},
        [
          { field: "short_code", message: "can't be blank", code: "required" },
          { field: "content", message: "can't be blank", code: "required" },
        ],
      ],
      [
        { short_code: "two words", content: "x" },
        [{ field: "short_code", message: "must be one word: letters, digits, - and _", code: "invalid" }],
      ],
      [
        { short_code: "SHIP", content: "x" },
        [{ field: "short_code", message: "has already been taken", code: "taken" }],
      ],
      [
        { short_code: ["a"], content: { b: 1 } },
        [
          { field: "short_code", message: expect.any(String), code: "invalid" },
          { field: "content", message: expect.any(String), code: "invalid" },
        ],
      ],
    ];
    for (const [body, errors] of cases) {
      const r = await create(body);
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual(errors);
    }
    expect(count(h)).toBe(1);
  });

  test("another account's canned responses are 404; a stranger's token is 401", async () => {
    const { h, b, base, create, agent } = await setup();
    const mine = (await create({ short_code: "hello", content: "Hi!" })).body;
    const theirs = (
      await h.request("POST", `/api/v1/accounts/${b.accountId}/canned_responses`, {
        token: b.adminToken,
        body: { short_code: "secret", content: "Globex only" },
      })
    ).body;
    expect(
      (await h.request("PATCH", `${base}/${theirs.id}`, { token: agent.token, body: { content: "mine now" } })).status,
    ).toBe(404);
    expect((await h.request("DELETE", `${base}/${theirs.id}`, { token: agent.token })).status).toBe(404);
    expect((await h.request("GET", base, { token: b.adminToken })).status).toBe(401);
    expect((await h.request("GET", `${base}?search=secret`, { token: agent.token })).body).toEqual([]);
    expect(
      (await h.request("GET", `/api/v1/accounts/${b.accountId}/canned_responses`, { token: b.adminToken })).body.map(
        (c: { content: string }) => c.content,
      ),
    ).toEqual(["Globex only"]);
    expect(mine.short_code).toBe("hello");
  });
});

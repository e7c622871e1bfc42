// The account caller's one statement (src/db/account-callers.repo.ts) answers what the four lookups
// it replaced answered, column for column, on the engine under test; a column added to one of the
// tables without naming it there fails here.
import { describe, expect, test } from "bun:test";
import { sha256Hex } from "../../src/lib/tokens.ts";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

async function setup() {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const b = await makeAccount(h, "Other");
  const agent = await makeMember(h, a.accountId, "agent", "Ann");
  // The pool reads committed rows only; requests are served after their commit.
  const find = async (token: string, accountId: number) => {
    h.deps.commits.flush();
    return h.deps.repos.accountCallers.findSoon(sha256Hex(token), accountId);
  };
  return { h, a, b, agent, find };
}

describe("the account caller in one statement", () => {
  test("a member's token: the user, the account and the membership, as SELECT * reads them", async () => {
    const { h, a, agent, find } = await setup();
    h.deps.db.query("UPDATE users SET message_signature = 'Ann, support' WHERE id = ?").run(agent.userId);
    const found = (await find(agent.token, a.accountId))!;
    expect(found.owner).toEqual({ owner_type: "user", owner_id: agent.userId });
    expect(found.user).toEqual(h.deps.repos.users.byId(agent.userId)!);
    expect(found.user!.message_signature).toBe("Ann, support");
    expect(found.account).toEqual(h.deps.repos.accounts.byId(a.accountId)!);
    expect(found.membership).toEqual(h.deps.repos.users.membership(a.accountId, agent.userId)!);
    expect(found.membership!.role).toBe("agent");
  });

  test("another account: the account without a membership; no account: neither", async () => {
    const { h, b, agent, find } = await setup();
    const other = (await find(agent.token, b.accountId))!;
    expect(other.user!.id).toBe(agent.userId);
    expect(other.account).toEqual(h.deps.repos.accounts.byId(b.accountId)!);
    expect(other.membership).toBeNull();
    const none = (await find(agent.token, 999_999))!;
    expect(none.account).toBeNull();
    expect(none.membership).toBeNull();
  });

  test("an unknown token is no row; a platform app's token has no user", async () => {
    const { h, a, find } = await setup();
    expect(await find("not a token", a.accountId)).toBeNull();
    const app = await h.deps.services.platform.createApp("Provisioner");
    const found = (await find(app.api_access_token, a.accountId))!;
    expect(found.owner.owner_type).toBe("platform_app");
    expect(found.user).toBeNull();
    expect(found.membership).toBeNull();
  });

  test("findSoon is awaited on PostgreSQL (the read pool), answered in place on SQLite", async () => {
    const { h, a, agent } = await setup();
    h.deps.commits.flush(); // the pool reads committed rows; requests are served after their commit
    const callers = h.deps.repos.accountCallers;
    const soon = callers.findSoon(sha256Hex(agent.token), a.accountId);
    expect(soon instanceof Promise).toBe(TEST_ENGINE === "postgres");
    expect(callers.awaits).toBe(TEST_ENGINE === "postgres");
    expect((await soon)!.membership!.role).toBe("agent");
    expect(callers.findSoon(sha256Hex("not a token"), a.accountId) instanceof Promise).toBe(TEST_ENGINE === "postgres");
  });

  test.skipIf(TEST_ENGINE !== "postgres")(
    "a session cookie's caller in one statement on PostgreSQL: the session as SELECT * reads it, the user, the membership",
    async () => {
      const { h, a, b, agent } = await setup();
      const id = await h.deps.writeTx.steps(() =>
        h.deps.repos.sessions.insertSteps({
          token_hash: sha256Hex("a cookie"),
          user_id: agent.userId,
          created_at: 10,
          last_used_at: 20,
          expires_at: 30,
          absolute_expires_at: 40,
          ip: "192.0.2.1",
          user_agent: null,
        }),
      );
      h.deps.commits.flush();
      const callers = h.deps.repos.accountCallers;
      const found = (await callers.findSession(sha256Hex("a cookie"), a.accountId))!;
      expect(found.session).toEqual(h.deps.repos.sessions.byHash(sha256Hex("a cookie"))!);
      expect(found.session.id).toBe(id);
      expect(found.user).toEqual(h.deps.repos.users.byId(agent.userId)!);
      expect(found.account).toEqual(h.deps.repos.accounts.byId(a.accountId)!);
      expect(found.membership).toEqual(h.deps.repos.users.membership(a.accountId, agent.userId)!);
      const other = (await callers.findSession(sha256Hex("a cookie"), b.accountId))!;
      expect([other.account?.id, other.membership]).toEqual([b.accountId, null]);
      expect(await callers.findSession(sha256Hex("no cookie"), a.accountId)).toBeNull();
    },
  );
});

// The Platform API's read-only routes on PostgreSQL: an account, its account users, a user and the
// app's agent bots, and the platform token's check before them, send nothing through the
// synchronous bridge in place; their statements go to the read pool. The refusals (another app's
// record, an unknown id, a bad token) are answered the same way, with the same envelopes.
// PostgreSQL only.
import { describe, expect, test } from "bun:test";
import { makeAccount } from "../helpers/factories.ts";
import { createHarness, type Harness } from "../helpers/harness.ts";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

const P = "/platform/api/v1";

/** A GET as a platform sends it, straight to the app (no request helper of its own in between). */
function reader(h: Harness) {
  return async (path: string, token: string | null) => {
    const headers: Record<string, string> = token === null ? {} : { api_access_token: token };
    const res = await h.app.handle(new Request(`http://localhost${P}${path}`, { headers }));
    return { status: res.status, body: (await res.json()) as any };
  };
}

/** POSTs as `token`; answers the body (status 200 checked). */
async function posted(h: Harness, path: string, token: string, body: Record<string, unknown>) {
  const r = await h.request("POST", path, { token, body });
  expect(r.status).toBe(200);
  return r.body;
}

/** The error envelope of a refusal (src/http/errors.ts), as it was before these routes were awaited. */
function refused(description: string, field: string, message: string, code: string) {
  return { description, error: description, errors: [{ field, message, code }] };
}

const notFound = (record: string, message: string) => refused(`${record} not found`, "id", message, "not_found");

describe.skipIf(TEST_ENGINE !== "postgres")(
  "the Platform API's GET routes on PostgreSQL wait on nothing in place",
  () => {
    test("an account, its users, a user, the app's bots and every refusal: all awaited", async () => {
      const h = createHarness();
      const app = (await h.deps.services.platform.createApp("Portal")).api_access_token;
      const rival = (await h.deps.services.platform.createApp("Rival")).api_access_token;
      const account = await posted(h, `${P}/accounts`, app, { name: "Tenant", custom_attributes: { plan: "pro" } });
      const ann = await posted(h, `${P}/users`, app, { name: "Ann", email: "ann@tenant.test" });
      const member = { user_id: ann.id, role: "administrator" };
      const membership = await posted(h, `${P}/accounts/${account.id}/account_users`, app, member);
      const bot = await posted(h, `${P}/agent_bots`, app, { name: "Triage", outgoing_url: "https://bot.example.com/" });
      // Ann also joins an account no app created: the platform's view of her leaves it out.
      const seeded = await makeAccount(h, "Seeded");
      const agent = { name: "Ann", email: "ann@tenant.test", role: "agent" };
      await posted(h, `/api/v1/accounts/${seeded.accountId}/agents`, seeded.adminToken, agent);
      const theirs = await posted(h, `${P}/accounts`, rival, { name: "Rival Co" });
      const theirUser = await posted(h, `${P}/users`, rival, { name: "Rob", email: "rob@rival.test" });
      const theirBot = await posted(h, `${P}/agent_bots`, rival, { name: "Rival bot" });
      h.deps.commits.flush();
      const read = reader(h);
      const answers: unknown[] = [];
      const blocking = await blockingDuring(async () => {
        const shown = await read(`/accounts/${account.id}`, app);
        answers.push([shown.status, shown.body]);
        const users = await read(`/accounts/${account.id}/account_users`, app);
        answers.push([users.status, users.body]);
        const user = await read(`/users/${ann.id}`, app);
        const { status, body } = user;
        answers.push([status, body.id, body.access_token, body.account_id, body.role, body.email, body.name]);
        answers.push(body.accounts.map((a: any) => [a.id, a.name, a.role, a.status, a.auto_offline]));
        const bots = await read("/agent_bots", app);
        answers.push([bots.status, bots.body]);
        const one = await read(`/agent_bots/${bot.id}`, app);
        answers.push([one.status, one.body]);
        for (const path of [
          `/accounts/${theirs.id}`,
          `/accounts/${seeded.accountId}`,
          "/accounts/999999",
          `/accounts/${theirs.id}/account_users`,
          "/accounts/none/account_users",
          `/users/${theirUser.id}`,
          `/users/${seeded.adminId}`,
          "/users/none",
          `/agent_bots/${theirBot.id}`,
          "/agent_bots/999999",
        ]) {
          const r = await read(path, app);
          answers.push([r.status, r.body]);
        }
        for (const token of ["nope", seeded.adminToken, null]) {
          for (const path of [`/accounts/${account.id}`, "/agent_bots"]) {
            const r = await read(path, token);
            answers.push([r.status, r.body]);
          }
        }
      });
      const bad = [401, refused("Invalid access_token", "api_access_token", "Invalid access_token", "unauthorized")];
      const signIn = "You need to sign in or sign up before continuing.";
      const none = [401, refused(signIn, "api_access_token", signIn, "unauthorized")];
      expect(answers).toEqual([
        [
          200,
          {
            id: account.id,
            name: "Tenant",
            locale: "en",
            status: "active",
            custom_attributes: { plan: "pro" },
            created_at: 1767603600,
          },
        ],
        [200, [membership]],
        [200, ann.id, null, account.id, "administrator", "ann@tenant.test", "Ann"],
        [[account.id, "Tenant", "administrator", "active", true]],
        [200, [bot]],
        [200, bot],
        [404, notFound("Account", `no account ${theirs.id} created by this platform app`)],
        [404, notFound("Account", `no account ${seeded.accountId} created by this platform app`)],
        [404, notFound("Account", "no account 999999 created by this platform app")],
        [404, notFound("Account", `no account ${theirs.id} created by this platform app`)],
        [404, notFound("Account", "no account none created by this platform app")],
        [404, notFound("User", `no user ${theirUser.id} created by this platform app`)],
        [404, notFound("User", `no user ${seeded.adminId} created by this platform app`)],
        [404, notFound("User", "no user none created by this platform app")],
        [404, notFound("Agent bot", `no agent bot ${theirBot.id} for this account`)],
        [404, notFound("Agent bot", "no agent bot 999999 for this account")],
        bad,
        bad,
        bad,
        bad,
        none,
        none,
      ]);
      // What the routes answered above, as created.
      expect(membership).toEqual({
        ...member,
        account_id: account.id,
        availability: "online",
        auto_offline: true,
        created_at: 1767603600,
      });
      expect(bot).toEqual({
        id: bot.id,
        name: "Triage",
        description: null,
        outgoing_url: "https://bot.example.com/",
        account_id: null,
        bot_type: "webhook",
        bot_config: {},
        thumbnail: "",
        avatar_url: null,
        access_token: expect.stringMatching(/^\w{32}$/),
        secret: expect.stringMatching(/^[\w-]{43}$/),
      });
      expect(blocking).toEqual([]);
    });
  },
);

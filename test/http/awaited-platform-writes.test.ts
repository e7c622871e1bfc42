// The Platform API's writes and an account's own settings as awaited bodies (writeTx.steps): what
// they change is checked on both engines; on PostgreSQL none of them sends a statement through the
// synchronous bridge in place. Another app's records are not found, and a refusal changes nothing.
import { describe, expect, test } from "bun:test";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { makeAccount } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";

const P = "/platform/api/v1";

describe("Platform API writes, awaited", () => {
  test("accounts, users, account users and tokens; another app's records are 404", async () => {
    const h = createHarness();
    const app = (await h.deps.services.platform.createApp("Portal")).api_access_token;
    const rival = (await h.deps.services.platform.createApp("Rival")).api_access_token;
    const call = (method: string, path: string, body?: Record<string, unknown>, token = app) =>
      h.request(method, `${P}${path}`, { token, body });
    const answers: unknown[] = [];
    let accountId = 0;
    let userId = 0;
    const blocking = await inPlaceDuring(async () => {
      const account = await call("POST", "/accounts", { name: "Tenant", custom_attributes: { plan: "pro" } });
      accountId = account.body.id;
      answers.push([account.status, account.body.name, account.body.custom_attributes]);
      const renamed = await call("PATCH", `/accounts/${accountId}`, { name: "Tenant Co", status: "suspended" });
      answers.push([renamed.status, renamed.body.name, renamed.body.status]);
      answers.push((await call("PATCH", `/accounts/${accountId}`, { name: "x" }, rival)).status);
      const user = await call("POST", "/users", { name: "Ann", email: "ann@tenant.test" });
      userId = user.body.id;
      answers.push([user.status, user.body.email, typeof user.body.access_token]);
      answers.push((await call("POST", "/users", { name: "Ann 2", email: "ann@tenant.test" })).body.errors);
      const edited = await call("PATCH", `/users/${userId}`, { display_name: "Annie" });
      answers.push([edited.status, edited.body.display_name]);
      const member = await call("POST", `/accounts/${accountId}/account_users`, { user_id: userId, role: "agent" });
      answers.push([member.status, member.body.role]);
      const promoted = await call("POST", `/accounts/${accountId}/account_users`, {
        user_id: userId,
        role: "administrator",
      });
      answers.push([promoted.status, promoted.body.role]);
      const token = await call("POST", `/users/${userId}/token`);
      answers.push([token.status, token.body.user.id]);
      answers.push((await call("DELETE", `/accounts/${accountId}/account_users`, { user_id: userId })).status);
      answers.push((await call("DELETE", `/users/${userId}`, undefined, rival)).status);
      answers.push((await call("DELETE", `/users/${userId}`)).status);
      answers.push((await call("DELETE", `/accounts/${accountId}`)).status);
    });
    expect(answers).toEqual([
      [200, "Tenant", { plan: "pro" }],
      [200, "Tenant Co", "suspended"],
      404,
      [200, "ann@tenant.test", "string"],
      [{ field: "email", message: "has already been taken", code: "taken" }],
      [200, "Annie"],
      [200, "agent"],
      [200, "administrator"],
      [200, userId],
      200,
      404,
      200,
      200,
    ]);
    expect(blocking).toEqual([]);
    expect((await call("GET", `/accounts/${accountId}`)).status).toBe(404);
    expect((await call("GET", `/users/${userId}`)).status).toBe(404);
  });

  test("an account's own settings, through the account API", async () => {
    const h = createHarness();
    const a = await makeAccount(h, "Acme");
    const path = `/api/v1/accounts/${a.accountId}`;
    const answers: unknown[] = [];
    const blocking = await inPlaceDuring(async () => {
      const r = await h.request("PATCH", path, { token: a.adminToken, body: { name: "Acme Ltd", locale: "pt_BR" } });
      answers.push([r.status, r.body.name, r.body.locale]);
      const bad = await h.request("PATCH", path, { token: a.adminToken, body: { custom_attributes: [1] } });
      answers.push([bad.status, bad.body.errors[0].field]);
    });
    expect(answers).toEqual([
      [200, "Acme Ltd", "pt_BR"],
      [422, "custom_attributes"],
    ]);
    expect(blocking).toEqual([]);
  });
});

// The Platform API over real HTTP, as an external system uses it: create an account and a user,
// make the user its administrator, get the user's token, and act as the user with it.
import { afterAll, expect, test } from "bun:test";
import { createApp } from "../../src/app.ts";
import { createHarness } from "../helpers/harness.ts";

const h = createHarness();
const platformToken = (await h.deps.services.platform.createApp("Portal")).api_access_token;
const server = createApp(h.deps).listen({ port: 0, hostname: "127.0.0.1" });
const base = `http://127.0.0.1:${server.server!.port}`;

afterAll(() => server.stop());

async function call(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { api_access_token: token, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

test("account → user → administrator → token → /api/v1/profile as that user", async () => {
  const account = await call("POST", "/platform/api/v1/accounts", platformToken, { name: "Tenant" });
  expect(account.status).toBe(200);
  expect(account.body).toMatchObject({ name: "Tenant", status: "active" });

  const user = await call("POST", "/platform/api/v1/users", platformToken, { name: "Ann", email: "ann@tenant.test" });
  expect(user.status).toBe(200);
  expect(user.body).toMatchObject({ name: "Ann", email: "ann@tenant.test", accounts: [] });

  const membership = await call("POST", `/platform/api/v1/accounts/${account.body.id}/account_users`, platformToken, {
    user_id: user.body.id,
    role: "administrator",
  });
  expect(membership.body).toMatchObject({ account_id: account.body.id, user_id: user.body.id, role: "administrator" });

  const token = await call("POST", `/platform/api/v1/users/${user.body.id}/token`, platformToken);
  expect(token.status).toBe(200);
  const apiToken = token.body.access_token as string;
  expect(apiToken).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32}$/);

  const profile = await call("GET", "/api/v1/profile", apiToken);
  expect(profile.status).toBe(200);
  expect(profile.body).toMatchObject({
    id: user.body.id,
    email: "ann@tenant.test",
    access_token: apiToken,
    account_id: account.body.id,
    role: "administrator",
  });
  expect(profile.body.accounts).toEqual([
    expect.objectContaining({ id: account.body.id, name: "Tenant", role: "administrator" }),
  ]);

  // The user's token now administers the account: it can create an API inbox there.
  const inbox = await call("POST", `/api/v1/accounts/${account.body.id}/inboxes`, apiToken, {
    name: "API",
    channel: { type: "api" },
  });
  expect(inbox.status).toBe(200);
  expect(inbox.body.channel_type).toBe("Channel::Api");
});

// Activepieces' Chatwoot trigger: it creates its webhook and keeps `response.payload.webhook.id`
// to delete it when the flow is disabled.
import { afterEach, expect, test } from "bun:test";
import { createHarness } from "../helpers/harness.ts";
import { makeAccount } from "../helpers/factories.ts";
import { servedEach } from "../helpers/served.ts";

const serve = servedEach(afterEach);

test("Activepieces: enable creates the webhook and reads payload.webhook.id; disable deletes it by that id", async () => {
  const h = createHarness();
  const a = await makeAccount(h);
  const served = serve(h);
  const base = `${served.base}/api/v1/accounts/${a.accountId}`;
  const headers = { api_access_token: a.adminToken, "Content-Type": "application/json" };

  const res = await fetch(`${base}/webhooks`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      url: "https://cloud.activepieces.com/api/v1/webhooks/flow123",
      subscriptions: ["message_created"],
    }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as any;
  const webhookId = body.payload.webhook.id;
  expect(webhookId).toBe(body.id);
  expect(body.payload.webhook).toEqual({
    id: webhookId,
    account_id: a.accountId,
    name: null,
    url: "https://cloud.activepieces.com/api/v1/webhooks/flow123",
    subscriptions: ["message_created"],
    inbox_id: null,
    disabled_reason: null,
  });
  // The secret is on the record only, never repeated inside payload.webhook.
  expect(typeof body.secret).toBe("string");

  const del = await fetch(`${base}/webhooks/${webhookId}`, { method: "DELETE", headers });
  expect(del.status).toBe(200);
  const list = (await (await fetch(`${base}/webhooks`, { headers })).json()) as any;
  expect(list.payload.webhooks).toEqual([]);
});

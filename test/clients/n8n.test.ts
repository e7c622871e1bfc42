// n8n's Chatwoot nodes: the token in an `Api-Access-Token` header (Rails reads it as
// HTTP_API_ACCESS_TOKEN) and updates with PUT, over real HTTP.
import { afterEach, expect, test } from "bun:test";
import { createHarness } from "../helpers/harness.ts";
import { makeAccount } from "../helpers/factories.ts";
import { makeInbox, makeTeam } from "../helpers/directory-fixtures.ts";
import { servedEach } from "../helpers/served.ts";

const serve = servedEach(afterEach);

test("n8n: Api-Access-Token header, then PUT on webhooks, labels, teams, contacts and conversations", async () => {
  const h = createHarness();
  const a = await makeAccount(h);
  const inboxId = makeInbox(h, a.accountId);
  const teamId = makeTeam(h, a.accountId, "support");
  const served = serve(h);
  const base = `${served.base}/api/v1/accounts/${a.accountId}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { "Api-Access-Token": a.adminToken, "Content-Type": "application/json", Accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  const hook = await call("POST", "/webhooks", {
    url: "https://n8n.example.com/webhook/abc",
    subscriptions: ["message_created"],
  });
  expect(hook.status).toBe(200);
  const hookPut = await call("PUT", `/webhooks/${hook.body.id}`, {
    url: "https://n8n.example.com/webhook/def",
    subscriptions: ["message_created", "conversation_created"],
  });
  expect(hookPut.status).toBe(200);
  expect(hookPut.body.payload.webhook).toMatchObject({
    id: hook.body.id,
    url: "https://n8n.example.com/webhook/def",
    subscriptions: ["message_created", "conversation_created"],
  });

  const label = await call("POST", "/labels", { title: "lead" });
  const labelPut = await call("PUT", `/labels/${label.body.id}`, { color: "#FF0000" });
  expect(labelPut.status).toBe(200);
  expect(labelPut.body.color).toBe("#FF0000");

  const teamPut = await call("PUT", `/teams/${teamId}`, { description: "Level 1" });
  expect(teamPut.status).toBe(200);
  expect(teamPut.body).toMatchObject({ id: teamId, description: "Level 1" });

  const contact = await call("POST", "/contacts", { name: "Nina", email: "nina@example.com" });
  const contactId = contact.body.payload.contact.id;
  const contactPut = await call("PUT", `/contacts/${contactId}`, { name: "Nina N." });
  expect(contactPut.body.payload.name).toBe("Nina N.");

  const conv = await call("POST", "/conversations", { inbox_id: inboxId, contact_id: contactId });
  const convPut = await call("PUT", `/conversations/${conv.body.id}`, { priority: "high" });
  expect(convPut.status).toBe(200);
  expect(convPut.body.priority).toBe("high");

  const denied = await fetch(`${base}/contacts`, { headers: { "Api-Access-Token": "not-a-token" } });
  expect(denied.status).toBe(401);
});

// A ready account for conversation tests: an API inbox, an agent in it, an agent outside it, a
// contact — and helpers that create through HTTP so tests exercise the real paths.
import { expect } from "bun:test";
import { makeAccount, makeMember, type AccountFixture, type UserFixture } from "./factories.ts";
import { addInboxMember, makeInbox } from "./directory-fixtures.ts";
import { createHarness, type Harness, type HarnessOptions } from "./harness.ts";

export interface World {
  h: Harness;
  a: AccountFixture;
  inboxId: number;
  agent: UserFixture;
  outsider: UserFixture;
  contactId: number;
  base: string;
}

export async function world(opts: HarnessOptions = {}): Promise<World> {
  const h = createHarness(opts);
  const a = await makeAccount(h, "Acme");
  const inboxId = makeInbox(h, a.accountId, { name: "API" });
  const agent = await makeMember(h, a.accountId, "agent", "Ann Agent");
  const outsider = await makeMember(h, a.accountId, "agent", "Otto Outsider");
  addInboxMember(h, inboxId, agent.userId);
  const base = `/api/v1/accounts/${a.accountId}`;
  const c = await h.request("POST", `${base}/contacts`, {
    token: a.adminToken,
    body: { name: "Carla Customer", email: "carla@example.com" },
  });
  expect(c.status).toBe(200);
  return { h, a, inboxId, agent, outsider, contactId: c.body.payload.contact.id, base };
}

export async function newConversation(
  w: World,
  body: Record<string, unknown> = {},
  token = w.a.adminToken,
): Promise<any> {
  const r = await w.h.request("POST", `${w.base}/conversations`, {
    token,
    body: { inbox_id: w.inboxId, contact_id: w.contactId, ...body },
  });
  expect(r.status).toBe(200);
  return r.body;
}

export async function send(
  w: World,
  displayId: number,
  body: Record<string, unknown>,
  token = w.a.adminToken,
  headers?: Record<string, string>,
) {
  return w.h.request("POST", `${w.base}/conversations/${displayId}/messages`, { token, body, headers });
}

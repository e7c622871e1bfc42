// A ready world for public (client) API tests: an account with an API inbox (created through the
// inbox service, so it has its identifier and hmac_token), an agent in it, and helpers that go
// through the public routes as a widget would.
import { expect } from "bun:test";
import type { InboxRow } from "../../src/db/inboxes.repo.ts";
import {
  addInboxMember,
  makeAccount,
  makeInbox,
  makeMember,
  type AccountFixture,
  type UserFixture,
} from "./factories.ts";
import { createHarness, type Harness, type HarnessOptions } from "./harness.ts";

export const NOW = 1767603600; // the ManualClock's start, 2026-01-05T09:00:00Z

export interface PublicWorld {
  h: Harness;
  a: AccountFixture;
  inbox: InboxRow;
  agent: UserFixture;
  /** /public/api/v1/inboxes/:inbox_identifier */
  base: string;
  /** /api/v1/accounts/:account_id */
  api: string;
}

export interface PublicContact {
  source_id: string;
  pubsub_token: string;
  id: number;
  name: string;
  email: string | null;
  phone_number: string | null;
}

export async function publicWorld(
  inboxInput: Record<string, unknown> = {},
  opts: HarnessOptions = {},
): Promise<PublicWorld> {
  const h = createHarness(opts);
  const a = await makeAccount(h, "Acme");
  const inbox = await makeInbox(h, a, { name: "Website", ...inboxInput });
  const agent = await makeMember(h, a.accountId, "agent", "Ann Agent");
  await addInboxMember(h, a, inbox.id, agent.userId);
  return {
    h,
    a,
    inbox,
    agent,
    base: `/public/api/v1/inboxes/${inbox.identifier}`,
    api: `/api/v1/accounts/${a.accountId}`,
  };
}

export async function newContact(
  w: PublicWorld,
  body: Record<string, unknown> = {},
  base = w.base,
): Promise<PublicContact> {
  const r = await w.h.request("POST", `${base}/contacts`, { body });
  expect(r.status).toBe(200);
  return r.body;
}

/** /public/api/v1/inboxes/:inbox_identifier/contacts/:contact_identifier */
export const contactPath = (w: PublicWorld, c: PublicContact, base = w.base) => `${base}/contacts/${c.source_id}`;

export async function openConversation(
  w: PublicWorld,
  c: PublicContact,
  body: Record<string, unknown> = {},
): Promise<any> {
  const r = await w.h.request("POST", `${contactPath(w, c)}/conversations`, { body });
  expect(r.status).toBe(200);
  return r.body;
}

export const messagesPath = (w: PublicWorld, c: PublicContact, displayId: number) =>
  `${contactPath(w, c)}/conversations/${displayId}/messages`;

export async function say(w: PublicWorld, c: PublicContact, displayId: number, content: string): Promise<any> {
  const r = await w.h.request("POST", messagesPath(w, c, displayId), { body: { content } });
  expect(r.status).toBe(200);
  return r.body;
}

/** An agent's message through the account API (outgoing unless the body says otherwise). */
export async function agentSays(
  w: PublicWorld,
  displayId: number,
  body: Record<string, unknown>,
  token = w.a.adminToken,
): Promise<any> {
  const r = await w.h.request("POST", `${w.api}/conversations/${displayId}/messages`, { token, body });
  expect(r.status).toBe(200);
  return r.body;
}

export async function agentResolves(w: PublicWorld, displayId: number, token = w.a.adminToken): Promise<void> {
  const r = await w.h.request("POST", `${w.api}/conversations/${displayId}/toggle_status`, {
    token,
    body: { status: "resolved" },
  });
  expect(r.status).toBe(200);
}

/** The contact's Sender record (spec's Sender table, contact variant). */
export function contactSender(c: {
  id: number;
  name: string;
  email: string | null;
  phone_number?: string | null;
  identifier?: string | null;
}) {
  return {
    additional_attributes: {},
    custom_attributes: {},
    email: c.email,
    id: c.id,
    identifier: c.identifier ?? null,
    name: c.name,
    phone_number: c.phone_number ?? null,
    thumbnail: "",
    blocked: false,
    type: "contact",
  };
}

/** A user's Sender record (spec's Sender table, user variant). */
export function userSender(id: number, name: string) {
  return {
    id,
    name,
    available_name: name,
    avatar_url: "",
    type: "user",
    availability_status: "offline",
    thumbnail: "",
  };
}

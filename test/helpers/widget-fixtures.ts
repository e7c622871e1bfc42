// A ready world for website chat tests: an account with a web_widget inbox (created through the
// inbox service, so it has its website_token and hmac_token), an agent in it, and a visitor helper
// that calls /api/v1/widget/* as the chat page does (website_token in the query, X-Auth-Token).
import { createHmac } from "node:crypto";
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
import { createHarness, type Harness, type HarnessOptions, type TestResponse } from "./harness.ts";

export interface WidgetWorld {
  h: Harness;
  a: AccountFixture;
  inbox: InboxRow;
  websiteToken: string;
  agent: UserFixture;
  /** /api/v1/accounts/:account_id */
  api: string;
}

export async function widgetWorld(
  channel: Record<string, unknown> = {},
  inboxInput: Record<string, unknown> = {},
  opts: HarnessOptions = {},
): Promise<WidgetWorld> {
  const h = createHarness(opts);
  const a = await makeAccount(h, "Acme");
  const inbox = await makeInbox(h, a, {
    name: "Acme website",
    channel: { type: "web_widget", website_url: "https://shop.example.com", ...channel },
    ...inboxInput,
  });
  const agent = await makeMember(h, a.accountId, "agent", "Ann Agent");
  await addInboxMember(h, a, inbox.id, agent.userId);
  const websiteToken = (JSON.parse(inbox.channel_attributes) as { website_token: string }).website_token;
  return { h, a, inbox, websiteToken, agent, api: `/api/v1/accounts/${a.accountId}` };
}

export const hashOf = (w: WidgetWorld, identifier: string) =>
  createHmac("sha256", w.inbox.hmac_token!).update(identifier).digest("hex");

/** A browser visitor: keeps its X-Auth-Token as the chat page does. */
export class Visitor {
  token: string | null = null;
  constructor(
    readonly w: WidgetWorld,
    readonly headers: Record<string, string> = {},
  ) {}

  async call<T = any>(method: string, path: string, body?: unknown, query = ""): Promise<TestResponse<T>> {
    const headers = { ...this.headers, ...(this.token ? { "x-auth-token": this.token } : {}) };
    return this.w.h.request<T>(method, `/api/v1/widget${path}?website_token=${this.w.websiteToken}${query}`, {
      body,
      headers,
    });
  }

  /** POST /config; remembers the token it answers with. */
  async start(): Promise<any> {
    const r = await this.call("POST", "/config");
    expect(r.status).toBe(200);
    this.token = r.body.auth_token;
    return r.body;
  }
}

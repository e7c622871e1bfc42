// What the mail flow tests share: an account with an email inbox reading its own IMAP folder of the
// test mailbox and sending through the recording SMTP server, and the API calls they read back with.
import { afterEach, expect } from "bun:test";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { createHarness, type Harness } from "../helpers/harness.ts";
import { makeAccount, type AccountFixture } from "../helpers/factories.ts";
import { deliver } from "./mailbox.ts";
import { emailChannel, type MailServers } from "./servers.ts";

export interface Setup {
  h: Harness;
  a: AccountFixture;
  inboxId: number;
  folder: string;
  poll(): Promise<void>;
  api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
}

/** In a test file: `setup()` makes a fresh world per test; senders stop after each test. */
export function flowFixtures(servers: MailServers) {
  const harnesses: Harness[] = [];
  afterEach(async () => {
    for (const h of harnesses.splice(0)) await h.deps.mail.sender.stop();
  });

  async function setup(smtpPort = servers.smtp.port, env: Record<string, string> = {}): Promise<Setup> {
    const h = createHarness({ env: { PARLEY_ALLOW_PRIVATE_MAIL_HOSTS: "1", ...env } });
    harnesses.push(h);
    const a = await makeAccount(h);
    const folder = `t${crypto.randomUUID().slice(0, 8)}`;
    const api = (method: string, path: string, body?: unknown) =>
      h.request(method, `/api/v1/accounts/${a.accountId}${path}`, { token: a.adminToken, body });
    const r = await api("POST", "/inboxes", {
      name: "Support",
      business_name: "Acme",
      channel: emailChannel(servers.dovecot, { ...servers.smtp, port: smtpPort }, { imap_folder: folder }),
    });
    expect(r.status).toBe(200);
    await deliver(servers.dovecot, folder); // the folder exists from the start
    return {
      h,
      a,
      inboxId: r.body.id,
      folder,
      api,
      /** Reads the mailbox; nothing of it (reads, filing, bookkeeping) runs in place on PostgreSQL. */
      async poll() {
        let reports: { error: string | null }[] = [];
        const blocking = await inPlaceDuring(async () => {
          reports = await h.deps.mail.poller.poll(true);
        });
        for (const report of reports) expect(report.error).toBeNull();
        expect(blocking).toEqual([]);
      },
    };
  }

  async function conversationsOf(s: Setup) {
    return (await s.api("GET", "/conversations?status=all")).body.data.payload as any[];
  }

  async function messagesOf(s: Setup, displayId: number) {
    return (await s.api("GET", `/conversations/${displayId}/messages`)).body.payload as any[];
  }
  return { setup, conversationsOf, messagesOf };
}

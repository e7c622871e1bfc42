// Email inboxes end to end against real servers on 127.0.0.1: Dovecot (IMAP) holds the customer's
// mail, the smtp-server package records Parley's replies. Without Dovecot the test says so and skips.
import { afterEach, describe, expect, test } from "bun:test";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { createHarness, type Harness } from "../helpers/harness.ts";
import { addInboxMember, makeAccount, makeMember, type AccountFixture } from "../helpers/factories.ts";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";
import { dovecotInstalled, skipWithoutDovecot } from "./dovecot.ts";
import { emailChannel, mailServers } from "./servers.ts";
import { readNow } from "../../src/db/reads.ts";

/** The inbox's stored mail settings, as the database holds them (passwords sealed). */
const stored = (h: Harness, inboxId: number) => readNow(h.deps.repos.emailChannels.readByInbox(inboxId));

if (!dovecotInstalled) console.warn(skipWithoutDovecot);

const servers = mailServers();

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.deps.mail.sender.stop();
});

async function setup(): Promise<{ h: Harness; a: AccountFixture }> {
  const h = createHarness({ env: { PARLEY_ALLOW_PRIVATE_MAIL_HOSTS: "1" } });
  harnesses.push(h);
  return { h, a: await makeAccount(h) };
}

async function createEmailInbox(h: Harness, a: AccountFixture, over: Record<string, unknown> = {}) {
  const r = await h.request("POST", `/api/v1/accounts/${a.accountId}/inboxes`, {
    token: a.adminToken,
    body: { name: "Support", business_name: "Acme", channel: emailChannel(servers.dovecot, servers.smtp, over) },
  });
  expect(r.status).toBe(200);
  return r.body as { id: number };
}

describe.skipIf(!dovecotInstalled)("email inboxes", () => {
  test("settings: administrators see them without passwords; agents do not see them; bad ones are a 422", async () => {
    const { h, a } = await setup();
    const inbox = await createEmailInbox(h, a);
    const shown = await h.request("GET", `/api/v1/accounts/${a.accountId}/inboxes/${inbox.id}`, {
      token: a.adminToken,
    });
    expect(shown.body).toMatchObject({
      channel_type: "Channel::Email",
      email: "support@acme.test",
      imap_enabled: true,
      imap_address: "127.0.0.1",
      imap_port: servers.dovecot.port,
      imap_login: "support",
      imap_password_set: true,
      smtp_password_set: true,
      smtp_enable_starttls_auto: false,
      imap_folder: "INBOX",
      last_error: null,
    });
    expect(JSON.stringify(shown.body)).not.toContain(servers.dovecot.password);
    expect(JSON.stringify(stored(h, inbox.id))).not.toContain(servers.dovecot.password);

    const agent = await makeMember(h, a.accountId, "agent");
    await addInboxMember(h, a, inbox.id, agent.userId);
    const seen = await h.request("GET", `/api/v1/accounts/${a.accountId}/inboxes/${inbox.id}`, { token: agent.token });
    expect(seen.status).toBe(200);
    expect(seen.body.imap_address).toBeUndefined();

    const before = h.deps.repos.inboxes.list(a.accountId).length;
    const bad = await h.request("POST", `/api/v1/accounts/${a.accountId}/inboxes`, {
      token: a.adminToken,
      body: { name: "Bad", channel: { type: "email", email: "x@acme.test", imap_enabled: true, imap_port: 70000 } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["channel.imap_port"]);
    const incomplete = await h.request("POST", `/api/v1/accounts/${a.accountId}/inboxes`, {
      token: a.adminToken,
      body: { name: "Bad", channel: { type: "email", email: "x@acme.test", imap_enabled: true } },
    });
    expect(incomplete.status).toBe(422);
    expect(incomplete.body.errors.map((e: { field: string }) => e.field)).toEqual([
      "channel.imap_address",
      "channel.imap_login",
      "channel.imap_password",
    ]);
    expect(h.deps.repos.inboxes.list(a.accountId).length).toBe(before);

    // A blank password in an update keeps the stored one; the port changes.
    const kept = stored(h, inbox.id)!.imap_password;
    const upd = await h.request("PATCH", `/api/v1/accounts/${a.accountId}/inboxes/${inbox.id}`, {
      token: a.adminToken,
      body: { channel: { imap_password: "", smtp_port: 2525 } },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.smtp_port).toBe(2525);
    expect(stored(h, inbox.id)!.imap_password).toBe(kept);
  });

  test("test connection says what worked and, in words, what did not; another account's inbox is a 404", async () => {
    const { h, a } = await setup();
    const good = await createEmailInbox(h, a);
    let ok: { status: number; body: any } | undefined;
    // On PostgreSQL the inbox and its settings are read on the read pool, none in place.
    const blocking = await inPlaceDuring(async () => {
      ok = await h.request("POST", `/api/v1/accounts/${a.accountId}/inboxes/${good.id}/test_connection`, {
        token: a.adminToken,
      });
    });
    expect(blocking).toEqual([]);
    if (!ok) throw new Error("no answer");
    expect(ok.status).toBe(200);
    expect(ok.body.imap.ok).toBe(true);
    expect(ok.body.imap.message).toMatch(/^IMAP server 127\.0\.0\.1:\d+: logged in; INBOX holds \d+ mails?$/);
    expect(ok.body.smtp).toEqual({
      ok: true,
      message: `SMTP server 127.0.0.1:${servers.smtp.port}: connected and logged in`,
    });

    const wrong = await createEmailInbox(h, a, { imap_password: "wrong", smtp_password: "wrong" });
    const bad = await h.request("POST", `/api/v1/accounts/${a.accountId}/inboxes/${wrong.id}/test_connection`, {
      token: a.adminToken,
    });
    expect(bad.body.imap.ok).toBe(false);
    expect(bad.body.imap.message).toContain(
      `IMAP server 127.0.0.1:${servers.dovecot.port} refused the login and password`,
    );
    expect(bad.body.smtp.ok).toBe(false);
    expect(bad.body.smtp.message).toContain(
      `SMTP server 127.0.0.1:${servers.smtp.port} refused the login and password`,
    );

    const other = await makeAccount(h, "Other");
    const walled = await h.request("POST", `/api/v1/accounts/${other.accountId}/inboxes/${good.id}/test_connection`, {
      token: other.adminToken,
    });
    expect(walled.status).toBe(404);
    const agent = await makeMember(h, a.accountId, "agent");
    const refused = await h.request("POST", `/api/v1/accounts/${a.accountId}/inboxes/${good.id}/test_connection`, {
      token: agent.token,
    });
    expect(refused.status).toBe(403);
  });
});

describe("email inbox settings: bad input", () => {
  test("each wrong value is a 422 naming its field, and nothing is stored", async () => {
    const { h, a } = await setup();
    const cases: [Record<string, unknown>, string][] = [
      [{ imap_enabled: "yes" }, "channel.imap_enabled"],
      [{ imap_port: 0 }, "channel.imap_port"],
      [{ smtp_port: "25a" }, "channel.smtp_port"],
      [{ imap_address: "mail.example.com/x" }, "channel.imap_address"],
      [{ smtp_address: "two words" }, "channel.smtp_address"],
      [{ smtp_domain: "host\r\nRCPT TO:<x@y>" }, "channel.smtp_domain"],
      [{ imap_password: 42 }, "channel.imap_password"],
      [{ smtp_password: "x".repeat(1025) }, "channel.smtp_password"],
      [{ smtp_openssl_verify_mode: "maybe" }, "channel.smtp_openssl_verify_mode"],
      [{ smtp_authentication: "cram-md5" }, "channel.smtp_authentication"],
      [{ imap_login: ["a"] }, "channel.imap_login"],
      [{ smtp_enabled: true }, "channel.smtp_address"],
    ];
    for (const [fields, field] of cases) {
      const r = await h.request("POST", `/api/v1/accounts/${a.accountId}/inboxes`, {
        token: a.adminToken,
        body: { name: "Bad", channel: { type: "email", email: "bad@acme.test", ...fields } },
      });
      expect([r.status, r.body.errors?.[0]?.field]).toEqual([422, field]);
    }
    expect(h.deps.repos.inboxes.list(a.accountId)).toEqual([]);

    const inbox = await h.request("POST", `/api/v1/accounts/${a.accountId}/inboxes`, {
      token: a.adminToken,
      body: { name: "Good", channel: { type: "email", email: "good@acme.test" } },
    });
    const before = stored(h, inbox.body.id);
    const r = await h.request("PATCH", `/api/v1/accounts/${a.accountId}/inboxes/${inbox.body.id}`, {
      token: a.adminToken,
      body: { channel: { imap_address: "imap.acme.test", imap_port: 99999 } },
    });
    expect(r.status).toBe(422);
    expect(stored(h, inbox.body.id)).toEqual(before);
  });
});

describe("replies queued for mail", () => {
  test("only outgoing public messages of email conversations are queued; an API inbox's never are", async () => {
    const w = await world();
    const api = await newConversation(w);
    const reply = await w.h.request("POST", `${w.base}/conversations/${api.id}/messages`, {
      token: w.a.adminToken,
      body: { content: "Over the API inbox" },
    });
    expect(reply.status).toBe(200);
    expect(w.h.deps.repos.emailOutbox.byMessage(reply.body.id)).toBeNull();

    const inbox = await w.h.request("POST", `${w.base}/inboxes`, {
      token: w.a.adminToken,
      body: { name: "Mail", channel: { type: "email", email: "help@acme.test" } },
    });
    const contact = await w.h.request("POST", `${w.base}/contacts`, {
      token: w.a.adminToken,
      body: { name: "Mia", email: "mia@example.com" },
    });
    const conversation = await w.h.request("POST", `${w.base}/conversations`, {
      token: w.a.adminToken,
      body: { inbox_id: inbox.body.id, contact_id: contact.body.payload.contact.id },
    });
    const post = (body: Record<string, unknown>) =>
      w.h.request("POST", `${w.base}/conversations/${conversation.body.id}/messages`, { token: w.a.adminToken, body });
    const note = await post({ content: "Note", private: true });
    const mail = await post({ content: "By mail" });
    expect(w.h.deps.repos.emailOutbox.byMessage(note.body.id)).toBeNull();
    // Queued with its Message-ID (the sender may already have tried it: this inbox has no SMTP server).
    expect(w.h.deps.repos.emailOutbox.byMessage(mail.body.id)?.header_id).toMatch(
      /^<parley-[0-9a-f-]{36}@acme\.test>$/,
    );
    await w.h.deps.mail.sender.stop();
  });
});

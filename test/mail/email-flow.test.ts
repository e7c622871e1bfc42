// Mail in, replies out, the customer's answer back in the same conversation, against Dovecot and a
// recording SMTP server on 127.0.0.1. Each test reads its own IMAP folder of the one test mailbox.
import { afterEach, describe, expect, test } from "bun:test";
import { createHarness, type Harness } from "../helpers/harness.ts";
import { makeAccount, type AccountFixture } from "../helpers/factories.ts";
import { dovecotInstalled, skipWithoutDovecot } from "./dovecot.ts";
import { emailChannel, mailServers } from "./servers.ts";
import { deliver } from "./mailbox.ts";
import { pdfFile, pngFile } from "../helpers/files.ts";
import { FLOOD_LIMIT } from "../../src/domain/messages.service.ts";
import { startSmtpRecorder } from "./smtp-recorder.ts";

if (!dovecotInstalled) console.warn(skipWithoutDovecot);

const servers = mailServers();

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.deps.mail.sender.stop();
});

interface Setup {
  h: Harness;
  a: AccountFixture;
  inboxId: number;
  folder: string;
  poll(): Promise<void>;
  api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
}

async function setup(smtpPort = servers.smtp.port, env: Record<string, string> = {}): Promise<Setup> {
  const h = createHarness({ env: { PARLEY_ALLOW_PRIVATE_MAIL_HOSTS: "1", ...env } });
  harnesses.push(h);
  const a = makeAccount(h);
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
    async poll() {
      const reports = await h.deps.mail.poller.poll(true);
      for (const report of reports) expect(report.error).toBeNull();
    },
  };
}

async function conversationsOf(s: Setup) {
  return (await s.api("GET", "/conversations?status=all")).body.data.payload as any[];
}

async function messagesOf(s: Setup, displayId: number) {
  return (await s.api("GET", `/conversations/${displayId}/messages`)).body.payload as any[];
}

describe.skipIf(!dovecotInstalled)("email conversations", () => {
  test("a new mail opens a conversation; the reply leaves threaded; the answer lands in the same conversation", async () => {
    const s = await setup();
    await deliver(servers.dovecot, s.folder, {
      from: '"Carla Diaz" <Carla@Example.com>',
      subject: "Order 42",
      messageId: "<first-42@example.com>",
      body: "Where is my order?\r\n\r\nOn Mon, Acme wrote:\r\n> Thanks for your order.",
    });
    await s.poll();
    const [conversation] = await conversationsOf(s);
    expect(conversation.meta.sender).toMatchObject({ name: "Carla Diaz", email: "carla@example.com" });
    expect(conversation.additional_attributes).toMatchObject({ source: "email", mail_subject: "Order 42" });
    const [incoming] = await messagesOf(s, conversation.id);
    expect(incoming).toMatchObject({ content: "Where is my order?", content_type: "incoming_email", message_type: 0 });
    expect(incoming.content_attributes.email).toMatchObject({
      subject: "Order 42",
      from: ["carla@example.com"],
      message_id: "<first-42@example.com>",
      text_content: { reply: "Where is my order?", quoted: "On Mon, Acme wrote:\n> Thanks for your order." },
    });

    // A second poll finds nothing new: the checkpoint moved with the filing.
    await s.poll();
    expect((await conversationsOf(s)).length).toBe(1);

    const sent = servers.smtp.mails.length;
    const note = await s.api("POST", `/conversations/${conversation.id}/messages`, {
      content: "internal",
      private: true,
    });
    expect(note.status).toBe(200);
    const reply = await s.api("POST", `/conversations/${conversation.id}/messages`, { content: "It ships today." });
    expect(reply.status).toBe(200);
    await s.h.deps.mail.sender.drain();
    const out = await servers.smtp.mail(sent + 1);
    expect(servers.smtp.mails.length).toBe(sent + 1); // the private note stayed home
    expect(out.to).toEqual(["carla@example.com"]);
    expect(out.parsed.from?.value[0]).toEqual({ address: "support@acme.test", name: "Admin via Acme" });
    expect(out.parsed.subject).toBe("Re: Order 42");
    expect(out.parsed.inReplyTo).toBe("<first-42@example.com>");
    expect(out.parsed.references).toBe("<first-42@example.com>");
    expect(out.parsed.text?.trim()).toBe("It ships today.");
    const ourId = out.parsed.messageId!;
    expect(ourId).toMatch(/^<parley-[0-9a-f-]{36}@acme\.test>$/);

    await deliver(servers.dovecot, s.folder, {
      from: "carla@example.com",
      subject: "Re: Order 42",
      inReplyTo: ourId,
      references: `<first-42@example.com> ${ourId}`,
      body: "Great, thanks!",
    });
    await s.poll();
    const all = await conversationsOf(s);
    expect(all.length).toBe(1);
    const thread = await messagesOf(s, conversation.id);
    expect(thread.filter((m) => m.message_type === 0).map((m) => m.content)).toEqual([
      "Where is my order?",
      "Great, thanks!",
    ]);
  });

  test("files: a mail's attachment becomes the message's; a reply's file leaves attached", async () => {
    const s = await setup();
    const png = pngFile(12, 7);
    const boundary = "b-1";
    const raw = [
      "From: carla@example.com",
      "To: support@acme.test",
      "Subject: Photo of the damage",
      "Message-ID: <photo@example.com>",
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      "",
      `--${boundary}`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      "See the photo.",
      `--${boundary}`,
      'Content-Type: image/png; name="damage.png"',
      'Content-Disposition: attachment; filename="damage.png"',
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from(png).toString("base64"),
      `--${boundary}--`,
      "",
    ].join("\r\n");
    await deliver(servers.dovecot, s.folder, raw);
    await s.poll();
    const [conversation] = await conversationsOf(s);
    const [incoming] = await messagesOf(s, conversation.id);
    expect(incoming.content).toBe("See the photo.");
    expect(incoming.attachments).toHaveLength(1);
    expect(incoming.attachments[0]).toMatchObject({ file_type: "image", extension: "png", width: 12, height: 7 });
    const link = new URL(incoming.attachments[0].data_url);
    const stored = await s.h.app.handle(new Request(`http://localhost${link.pathname}${link.search}`));
    expect(stored.status).toBe(200);
    expect(Buffer.from(await stored.arrayBuffer()).equals(Buffer.from(png))).toBe(true);

    const form = new FormData();
    form.append("content", "Here is the invoice.");
    form.append(
      "attachments[]",
      new File([new Uint8Array(pdfFile("Invoice 7"))], "invoice.pdf", { type: "application/pdf" }),
    );
    const res = await s.h.app.handle(
      new Request(`http://localhost/api/v1/accounts/${s.a.accountId}/conversations/${conversation.id}/messages`, {
        method: "POST",
        headers: { api_access_token: s.a.adminToken },
        body: form,
      }),
    );
    expect(res.status).toBe(200);
    const sent = servers.smtp.mails.length;
    await s.h.deps.mail.sender.drain();
    const out = await servers.smtp.mail(sent + 1);
    expect(out.parsed.text?.trim()).toBe("Here is the invoice.");
    expect(out.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ["invoice.pdf", "application/pdf"],
    ]);
    expect(Buffer.from(out.parsed.attachments[0]!.content).equals(Buffer.from(pdfFile("Invoice 7")))).toBe(true);
  });

  test("IMAP IDLE: a new mail is read the moment the server announces it, not at the next interval", async () => {
    const s = await setup();
    const poller = s.h.deps.mail.poller;
    const filed = (subject: string) =>
      new Promise<void>((resolve) => {
        const stop = poller.watch((r) => {
          if (r.inboxId === s.inboxId && r.filed > 0) {
            stop();
            resolve();
          }
        });
        void deliver(servers.dovecot, s.folder, { subject });
      });
    try {
      await s.h.deps.mail.idler.sync();
      await filed("Right now");
      // The manual clock has not moved: no interval came due, only the server's announcement.
      await filed("And again");
      const subjects = (await conversationsOf(s)).map((c) => c.additional_attributes.mail_subject).sort();
      expect(subjects).toEqual(["And again", "Right now"]);
    } finally {
      await s.h.deps.mail.idler.stop();
    }
  });

  test("auto-replies, bounces and bulk mail open nothing; a bounce on a known thread is kept as a private note", async () => {
    const s = await setup();
    await deliver(
      servers.dovecot,
      s.folder,
      { subject: "Out of office", headers: ["Auto-Submitted: auto-replied"] },
      { subject: "Newsletter", headers: ["List-Unsubscribe: <mailto:u@example.com>"] },
      { subject: "Hello", messageId: "<hello@example.com>" },
    );
    await s.poll();
    const [conversation, ...rest] = await conversationsOf(s);
    expect(rest).toEqual([]);
    expect(conversation.additional_attributes.mail_subject).toBe("Hello");
    await deliver(servers.dovecot, s.folder, {
      from: "MAILER-DAEMON@example.com",
      subject: "Undelivered Mail",
      inReplyTo: "<hello@example.com>",
      body: "The address was not found.",
    });
    await s.poll();
    expect((await conversationsOf(s)).length).toBe(1);
    const notes = (await messagesOf(s, conversation.id)).filter((m) => m.private);
    expect(notes.map((m) => m.content)).toEqual([
      "Automatic mail (bounce) from mailer-daemon@example.com: Undelivered Mail\n\nThe address was not found.",
    ]);
  });

  test("a mail seen again (the folder read from the start) is not filed twice", async () => {
    const s = await setup();
    await deliver(servers.dovecot, s.folder, { messageId: "<once@example.com>" }, { messageId: "<twice@example.com>" });
    await s.poll();
    s.h.deps.writeTx(() => s.h.deps.repos.emailChannels.resetCheckpoint(s.inboxId));
    await s.poll();
    const list = await conversationsOf(s);
    expect(list.length).toBe(2);
    expect(list.every((c) => c.messages.length === 1)).toBe(true);
  });

  test("a mail over the size limit is skipped and noted on the inbox; the next one is filed", async () => {
    const s = await setup(servers.smtp.port, { PARLEY_MAIL_MAX_BYTES: "2048" });
    await deliver(servers.dovecot, s.folder, { subject: "Huge", body: "x".repeat(4000) }, { subject: "Small" });
    const [report] = await s.h.deps.mail.poller.poll(true);
    expect(report).toMatchObject({ filed: 1, skipped: 1 });
    const list = await conversationsOf(s);
    expect(list.map((c) => c.additional_attributes.mail_subject)).toEqual(["Small"]);
    const inbox = await s.api("GET", `/inboxes/${s.inboxId}`);
    expect(inbox.body.last_error).toMatch(/^mail UID 1 skipped: \d+ bytes is over the limit of 2048$/);
  });

  test("a mail that cannot be filed now (the flood guard) stays unread and is filed at a later poll", async () => {
    const s = await setup();
    await deliver(servers.dovecot, s.folder, { subject: "Busy", messageId: "<busy@example.com>" });
    await s.poll();
    const [conversation] = await conversationsOf(s);
    for (let i = 1; i < FLOOD_LIMIT; i++)
      await s.api("POST", `/conversations/${conversation.id}/messages`, { content: `note ${i}`, private: true });
    const checkpoint = s.h.deps.repos.emailChannels.byInbox(s.inboxId)!.last_uid;
    await deliver(servers.dovecot, s.folder, {
      subject: "Re: Busy",
      inReplyTo: "<busy@example.com>",
      body: "Still there?",
    });
    const [refused] = await s.h.deps.mail.poller.poll(true);
    expect(refused!.error).toMatch(/mail UID \d+ could not be filed \(will try again\): Too many messages/);
    expect(s.h.deps.repos.emailChannels.byInbox(s.inboxId)!.last_uid).toBe(checkpoint);
    s.h.clock.advance(61_000);
    await s.poll();
    const texts = (await messagesOf(s, conversation.id)).filter((m) => m.message_type === 0).map((m) => m.content);
    expect(texts).toContain("Still there?");
    expect(s.h.deps.repos.emailChannels.byInbox(s.inboxId)!.last_uid).toBe(checkpoint + 1);
  });

  test("a mailbox that refuses the login is noted in words and the other inboxes go on", async () => {
    const s = await setup();
    const other = await s.api("POST", "/inboxes", {
      name: "Broken",
      channel: {
        type: "email",
        email: "broken@acme.test",
        imap_enabled: true,
        imap_address: "127.0.0.1",
        imap_port: servers.dovecot.port,
        imap_login: servers.dovecot.user,
        imap_password: "wrong",
        imap_enable_ssl: false,
      },
    });
    await deliver(servers.dovecot, s.folder, { subject: "Still filed" });
    const reports = await s.h.deps.mail.poller.poll(true);
    expect(reports.find((r) => r.inboxId === other.body.id)?.error).toBe(
      `IMAP server 127.0.0.1:${servers.dovecot.port} refused the login and password: Authentication failed.`,
    );
    expect(reports.find((r) => r.inboxId === s.inboxId)).toMatchObject({ filed: 1, error: null });
    const broken = await s.api("GET", `/inboxes/${other.body.id}`);
    expect(broken.body.last_error).toContain("refused the login and password");
  });

  test("SMTP down: the reply waits, retries with backoff, and is delivered once when the server is back", async () => {
    const down = await startSmtpRecorder();
    const port = down.port;
    await down.close();
    const s = await setup(port);
    await deliver(servers.dovecot, s.folder, { subject: "Help" });
    await s.poll();
    const [conversation] = await conversationsOf(s);
    const reply = await s.api("POST", `/conversations/${conversation.id}/messages`, { content: "On it." });
    await s.h.deps.mail.sender.drain();
    const queued = s.h.deps.repos.emailOutbox.byMessage(reply.body.id)!;
    expect(queued).toMatchObject({ state: "pending", attempts: 1 });
    expect(queued.last_error).toBe(
      `SMTP server 127.0.0.1:${port} refused the connection (is the port right, and the server running?)`,
    );
    const back = await startSmtpRecorder(port);
    try {
      await s.h.deps.mail.sender.drain(); // not due yet: nothing is sent
      expect(back.mails.length).toBe(0);
      s.h.clock.advance(31_000);
      await s.h.deps.mail.sender.drain();
      await s.h.deps.mail.sender.drain();
      expect(back.mails.length).toBe(1);
      expect(back.mails[0]!.parsed.text?.trim()).toBe("On it.");
      expect(s.h.deps.repos.emailOutbox.byMessage(reply.body.id)).toMatchObject({ state: "sent", attempts: 2 });
    } finally {
      await back.close();
    }
  });

  test("a refused recipient fails the message with the server's answer", async () => {
    const s = await setup();
    await deliver(servers.dovecot, s.folder, { subject: "Help" });
    await s.poll();
    const [conversation] = await conversationsOf(s);
    servers.smtp.refuseRecipients("No such user here");
    try {
      const reply = await s.api("POST", `/conversations/${conversation.id}/messages`, { content: "Hello?" });
      await s.h.deps.mail.sender.drain();
      const message = (await messagesOf(s, conversation.id)).find((m) => m.id === reply.body.id);
      expect(message.status).toBe("failed");
      expect(message.content_attributes.external_error).toMatch(
        /^SMTP server 127\.0\.0\.1:\d+ answered 550: .*No such user here/,
      );
    } finally {
      servers.smtp.refuseRecipients(null);
    }
  });
});

describe.skipIf(!dovecotInstalled)("conversation transcripts", () => {
  test("mails the public messages (never notes) to the address; bad input is a 422 and sends nothing", async () => {
    const s = await setup();
    await deliver(servers.dovecot, s.folder, { subject: "Kettle", body: "It leaks." });
    await s.poll();
    const [conversation] = await conversationsOf(s);
    await s.api("POST", `/conversations/${conversation.id}/messages`, { content: "secret note", private: true });
    await s.api("POST", `/conversations/${conversation.id}/messages`, { content: "A new one is coming." });
    await s.h.deps.mail.sender.drain();
    const before = servers.smtp.mails.length;
    const bad = await s.api("POST", `/conversations/${conversation.id}/transcript`, { email: "not an address" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({ field: "email", message: "is not a valid email address" });
    const ok = await s.api("POST", `/conversations/${conversation.id}/transcript`, { email: "Boss@Example.com" });
    expect(ok.status).toBe(200);
    expect(servers.smtp.mails.length).toBe(before + 1);
    const mail = servers.smtp.mails[before]!;
    expect(mail.to).toEqual(["boss@example.com"]);
    expect(mail.parsed.subject).toBe(`[Acme] Conversation #${conversation.id} transcript`);
    const text = mail.parsed.text ?? "";
    expect(text).toContain("Carla Diaz (");
    expect(text).toContain("It leaks.");
    expect(text).toContain("A new one is coming.");
    expect(text).not.toContain("secret note");

    const other = makeAccount(s.h, "Other");
    const walled = await s.h.request(
      "POST",
      `/api/v1/accounts/${other.accountId}/conversations/${conversation.id}/transcript`,
      { token: other.adminToken, body: { email: "x@example.com" } },
    );
    expect(walled.status).toBe(404);
    expect(servers.smtp.mails.length).toBe(before + 1);
  });
});

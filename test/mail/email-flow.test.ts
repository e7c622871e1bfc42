// Mail in, replies out, the customer's answer back in the same conversation, against Dovecot and a
// recording SMTP server on 127.0.0.1. Each test reads its own IMAP folder of the one test mailbox.
import { describe, expect, test } from "bun:test";
import { dovecotInstalled, skipWithoutDovecot } from "./dovecot.ts";
import { flowFixtures } from "./flow-fixtures.ts";
import { deliver } from "./mailbox.ts";
import { mailServers } from "./servers.ts";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { pdfFile, pngFile } from "../helpers/files.ts";

if (!dovecotInstalled) console.warn(skipWithoutDovecot);

const servers = mailServers();
const { setup, conversationsOf, messagesOf } = flowFixtures(servers);

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
    // The sender's reads and bookkeeping never hold the process through PostgreSQL's bridge in place.
    expect(await inPlaceDuring(() => s.h.deps.mail.sender.drain())).toEqual([]);
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

  test("plus addressing: replies name the conversation in Reply-To, and an answer to it threads without headers", async () => {
    const s = await setup();
    const on = await s.api("PATCH", `/inboxes/${s.inboxId}`, { channel: { reply_plus_addressing: true } });
    expect(on.body.reply_plus_addressing).toBe(true);
    await deliver(servers.dovecot, s.folder, { subject: "Plus", messageId: "<plus@example.com>" });
    await s.poll();
    const [conversation] = await conversationsOf(s);
    const sent = servers.smtp.mails.length;
    await s.api("POST", `/conversations/${conversation.id}/messages`, { content: "Answer here." });
    await s.h.deps.mail.sender.drain();
    const out = await servers.smtp.mail(sent + 1);
    const uuid = conversation.uuid as string;
    expect(out.parsed.replyTo?.value[0]?.address).toBe(`support+${uuid}@acme.test`);
    // A mail program that keeps no threading headers, answering the Reply-To address.
    await deliver(servers.dovecot, s.folder, { to: `support+${uuid}@acme.test`, subject: "Plus", body: "No headers." });
    await s.poll();
    expect((await conversationsOf(s)).length).toBe(1);
    const texts = (await messagesOf(s, conversation.id)).filter((m) => m.message_type === 0).map((m) => m.content);
    expect(texts).toEqual(["Where is my order?", "No headers."]);
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
    await s.h.deps.writeTx(() => s.h.deps.repos.emailChannels.resetCheckpoint(s.inboxId));
    await s.poll();
    const list = await conversationsOf(s);
    expect(list.length).toBe(2);
    expect(list.every((c) => c.messages.length === 1)).toBe(true);
  });
});

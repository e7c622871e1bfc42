// The pure parts of email inboxes: quoted history, HTML sanitizing, password sealing, reading a mail.
import { describe, expect, test } from "bun:test";
import { SecretBox } from "../../src/lib/secret-box.ts";
import { parseMail } from "../../src/mail/parse-mail.ts";
import { splitQuoted } from "../../src/mail/quoted.ts";
import { sanitizeHtml } from "../../src/mail/sanitize-html.ts";
import { composeReply, replySubject } from "../../src/mail/compose-reply.ts";

describe("quoted history", () => {
  test("an attribution line starts the quote", () => {
    const text =
      "Thanks, that worked.\n\nOn Mon, 3 Nov 2026 at 10:00, Acme <support@acme.test> wrote:\n> Try restarting it.";
    expect(splitQuoted(text)).toEqual({
      reply: "Thanks, that worked.",
      quoted: "On Mon, 3 Nov 2026 at 10:00, Acme <support@acme.test> wrote:\n> Try restarting it.",
    });
  });

  test("an attribution split over two lines, Outlook's marker, and a trailing > block", () => {
    expect(splitQuoted("Yes.\nOn Mon, 3 Nov 2026, Acme\n<support@acme.test> wrote:\n> old").reply).toBe("Yes.");
    expect(splitQuoted("Fine.\n-----Original Message-----\nFrom: x").quoted).toBe(
      "-----Original Message-----\nFrom: x",
    );
    expect(splitQuoted("New text\n\n> quoted 1\n>\n> quoted 2\n")).toEqual({
      reply: "New text",
      quoted: "> quoted 1\n>\n> quoted 2",
    });
  });

  test("text without a quote is all reply; a mail that is only a quote keeps its text", () => {
    expect(splitQuoted("Just a question.")).toEqual({ reply: "Just a question.", quoted: null });
    expect(splitQuoted("> only quoted")).toEqual({ reply: "> only quoted", quoted: null });
  });
});

describe("HTML sanitizing", () => {
  test("keeps formatting and safe links, drops scripts, handlers, styles, images and forms", async () => {
    const html =
      '<html><head><style>p{}</style></head><body><p onclick="x()" style="color:red">Hi <b>there</b></p>' +
      '<script>alert(1)</script><a href="javascript:alert(1)">bad</a><a href="https://acme.test/x">good</a>' +
      '<img src="https://tracker.test/p.gif"><form><input name="a"></form><!-- c --><font color="red">red</font></body></html>';
    expect(await sanitizeHtml(html)).toBe(
      '<p>Hi <b>there</b></p><a rel="noopener noreferrer nofollow">bad</a>' +
        '<a href="https://acme.test/x" rel="noopener noreferrer nofollow">good</a>red',
    );
  });
});

describe("sealed passwords", () => {
  test("open gives the password back with the same key, null with another key or damaged text", () => {
    const box = new SecretBox("key one");
    const sealed = box.seal("app-password");
    expect(sealed.startsWith("v1:")).toBe(true);
    expect(sealed).not.toContain("app-password");
    expect(box.seal("app-password")).not.toBe(sealed);
    expect(box.open(sealed)).toBe("app-password");
    expect(new SecretBox("key two").open(sealed)).toBeNull();
    expect(box.open(`${sealed.slice(0, -4)}AAAA`)).toBeNull();
    expect(box.open("plain")).toBeNull();
  });
});

describe("reading a mail", () => {
  test("addresses, threading headers, the split text and the machine-sent kinds", async () => {
    const raw = [
      'From: "Carla Diaz" <Carla@Example.com>',
      "To: support@acme.test",
      "Cc: Boss <boss@example.com>",
      "Subject: Order 42",
      "Message-ID: <abc@example.com>",
      "In-Reply-To: <parley-1@acme.test>",
      "References: <first@example.com> <parley-1@acme.test>",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Where is it?",
      "",
      "On Mon, Acme wrote:",
      "> Shipped.",
    ].join("\r\n");
    const mail = await parseMail(new TextEncoder().encode(raw));
    expect(mail).toMatchObject({
      messageId: "<abc@example.com>",
      inReplyTo: ["<parley-1@acme.test>"],
      references: ["<first@example.com>", "<parley-1@acme.test>"],
      from: { name: "Carla Diaz", address: "carla@example.com" },
      cc: [{ name: "Boss", address: "boss@example.com" }],
      subject: "Order 42",
      reply: "Where is it?",
      quoted: "On Mon, Acme wrote:\n> Shipped.",
      automated: null,
      files: [],
    });
    const auto = await parseMail(
      new TextEncoder().encode(`${raw.replace("Subject:", "Auto-Submitted: auto-replied\r\nSubject:")}`),
    );
    expect(auto.automated).toBe("auto_reply");
    const bulk = await parseMail(
      new TextEncoder().encode(raw.replace("Subject:", "List-Id: <news.example.com>\r\nSubject:")),
    );
    expect(bulk.automated).toBe("bulk");
    const bounce = await parseMail(
      new TextEncoder().encode(raw.replace('"Carla Diaz" <Carla@Example.com>', "MAILER-DAEMON@example.com")),
    );
    expect(bounce.automated).toBe("bounce");
  });

  test("NUL characters are left out of every text a mail gives (the API refuses them; PostgreSQL cannot hold them)", async () => {
    const raw = [
      "From: =?utf-8?B?Q2FyAGxh?= <carla@example.com>", // "Car\0la", encoded
      "Subject: =?utf-8?B?T3JkZXIANDI=?=", // "Order\042"
      "Message-ID: <nul@example.com>",
      'Content-Type: multipart/mixed; boundary="b"',
      "",
      "--b",
      'Content-Type: multipart/alternative; boundary="a"',
      "",
      "--a",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from("Where\u0000 is it?").toString("base64"),
      "--a",
      "Content-Type: text/html; charset=utf-8",
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from("<p>Where\u0000 is it?</p>").toString("base64"),
      "--a--",
      "--b",
      'Content-Type: application/octet-stream; name="=?utf-8?B?aW52AG9pY2UucGRm?="', // "inv\0oice.pdf"
      "Content-Disposition: attachment",
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from("%PDF-1.4\u0000binary stays").toString("base64"),
      "--b--",
      "",
    ].join("\r\n");
    const mail = await parseMail(new TextEncoder().encode(raw));
    expect(mail.from).toEqual({ name: "Carla", address: "carla@example.com" });
    expect(mail.subject).toBe("Order42");
    expect(mail.reply).toBe("Where is it?");
    expect(mail.html).toBe("<p>Where is it?</p>");
    expect(mail.files.map((f) => f.filename)).toEqual(["invoice.pdf"]);
    // The file's bytes are the file's: a NUL in them is kept.
    expect(new TextDecoder().decode(mail.files[0]!.bytes)).toBe("%PDF-1.4\u0000binary stays");
  });

  test("a mail without a Message-ID gets a stable stand-in from its bytes; an unknown charset still reads", async () => {
    const raw = "From: a@example.com\r\nSubject: x\r\nContent-Type: text/plain; charset=x-unknown-9\r\n\r\nhello\r\n";
    const one = await parseMail(new TextEncoder().encode(raw));
    const two = await parseMail(new TextEncoder().encode(raw));
    expect(one.messageId).toMatch(/^<no-message-id-[0-9a-f]{32}@parley\.invalid>$/);
    expect(two.messageId).toBe(one.messageId);
    expect(one.reply).toBe("hello");
  });
});

describe("composing a reply", () => {
  test("Re: once, the agent via the business, threading headers", () => {
    expect(replySubject("Order 42", "x")).toBe("Re: Order 42");
    expect(replySubject("RE: Order 42", "x")).toBe("RE: Order 42");
    expect(replySubject("", "[#3] Acme")).toBe("[#3] Acme");
    const m = composeReply({
      headerId: "<parley-2@acme.test>",
      inboxEmail: "support@acme.test",
      businessName: "Acme",
      senderName: "Ana",
      to: "carla@example.com",
      cc: [],
      subject: "Re: Order 42",
      thread: ["<abc@example.com>"],
      inReplyTo: "<abc@example.com>",
      text: "On its way.",
      replyTo: null,
      files: [],
    });
    expect(m).toMatchObject({
      from: { name: "Ana via Acme", address: "support@acme.test" },
      to: "carla@example.com",
      messageId: "<parley-2@acme.test>",
      inReplyTo: "<abc@example.com>",
      references: ["<abc@example.com>"],
      text: "On its way.",
    });
  });
});

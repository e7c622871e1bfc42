// Email inboxes in the agents' web app: an administrator creates one, enters the mail servers,
// tests the connection and sees each side's answer in words; a mail with quoted history then shows
// its new text with the history collapsed, and the agent's reply leaves as mail.
import { describe, expect, test } from "bun:test";
import { browserSuite, haveChromium, type WebServer } from "./browser.ts";
import { accountApi, type AccountApi } from "./seed.ts";
import { dovecotInstalled, skipWithoutDovecot } from "../mail/dovecot.ts";
import { deliver } from "../mail/mailbox.ts";
import { mailServers } from "../mail/servers.ts";

const ready = haveChromium && dovecotInstalled;
if (!haveChromium) console.warn("test/e2e/email-inbox.test.ts: SKIPPED — /usr/bin/chromium is missing");
if (!dovecotInstalled) console.warn(`test/e2e/email-inbox.test.ts: SKIPPED — ${skipWithoutDovecot}`);

let server: WebServer;
let admin: AccountApi;
const servers = mailServers();

describe.skipIf(!ready)("email inbox in the web app", () => {
  const { openPage, signIn } = browserSuite({
    env: { PARLEY_ALLOW_PRIVATE_MAIL_HOSTS: "1" },
    setup: async (s) => {
      server = s;
      admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
    },
  });

  test("create, set up the servers, test the connection, read a mail and reply to it", async () => {
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/settings/inboxes`);
    const create = page.locator("form", { has: page.getByRole("heading", { name: "Add an email inbox" }) });
    await create.getByLabel("Name of the email inbox").fill("Support mail");
    await create.getByLabel("Support address").fill("support@acme.test");
    await create.getByRole("button", { name: "Create email inbox" }).click();
    await page.getByRole("heading", { name: "Support mail", level: 2 }).waitFor();

    const form = page.locator("form", { has: page.getByRole("heading", { name: "Mail servers" }) });
    await form.getByText("The mailbox has not been read yet.").waitFor();
    await form.getByLabel("Read mail from this mailbox").check();
    await form.getByLabel("IMAP server").fill("127.0.0.1");
    await form.getByLabel("IMAP port").fill(String(servers.dovecot.port));
    await form.getByLabel("IMAP login").fill(servers.dovecot.user);
    await form.getByLabel("IMAP password").fill(servers.dovecot.password);
    await form.getByLabel("SSL/TLS (port 993)").uncheck();
    await form.getByLabel("Folder").fill("web");
    await form.getByLabel("Send agents' replies by mail").check();
    await form.getByLabel("SMTP server").fill("127.0.0.1");
    await form.getByLabel("SMTP port").fill("70000");
    await form.getByLabel("SMTP login").fill(servers.smtp.user);
    await form.getByLabel("SMTP password").fill(servers.smtp.password);
    await form.getByLabel("STARTTLS when offered (port 587)").uncheck();
    await form.getByLabel(/Name the conversation in the reply address/).check();
    await form.getByRole("button", { name: "Save mail settings" }).click();
    await form.getByText("SMTP port must be a port number between 1 and 65535").waitFor();
    const inbox = (await admin.get("/inboxes")).payload.find((i: any) => i.name === "Support mail");
    expect(inbox.imap_enabled).toBe(false);

    await form.getByLabel("SMTP port").fill(String(servers.smtp.port));
    await form.getByRole("button", { name: "Save mail settings" }).click();
    await form.getByText("Set. Leave blank to keep it.").first().waitFor();
    const saved = await admin.get(`/inboxes/${inbox.id}`);
    expect(saved).toMatchObject({
      reply_plus_addressing: true,
      imap_enabled: true,
      imap_folder: "web",
      smtp_port: servers.smtp.port,
      imap_password_set: true,
    });

    await form.getByRole("button", { name: "Test connection" }).click();
    const results = form.getByRole("list", { name: "Connection test" });
    await results.getByText(`✓ SMTP server 127.0.0.1:${servers.smtp.port}: connected and logged in`).waitFor();
    expect(await results.locator("li").first().textContent()).toBe(
      `✗ IMAP server 127.0.0.1:${servers.dovecot.port}: Mailbox doesn't exist: web`,
    );
    await deliver(servers.dovecot, "web"); // the folder now exists, empty
    await form.getByRole("button", { name: "Test connection" }).click();
    await results.getByText(/logged in; web holds/).waitFor();
    expect(await results.locator("li").first().textContent()).toMatch(
      new RegExp(`^✓ IMAP server 127\\.0\\.0\\.1:${servers.dovecot.port}: logged in; web holds 0 mails$`),
    );

    await deliver(servers.dovecot, "web", {
      subject: "Broken kettle",
      body: "It still leaks.\r\n\r\nOn Mon, Acme wrote:\r\n> Please try the new seal.",
    });
    const [report] = await server.deps.mail.poller.poll(true);
    expect(report).toMatchObject({ filed: 1, error: null });
    const [conversation] = (await admin.get("/conversations?status=all")).data.payload;
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/conversations/${conversation.id}`);
    const thread = page.locator(".message.incoming").filter({ hasText: "It still leaks." });
    const quoted = thread.locator("details.quoted-mail");
    expect(await quoted.getAttribute("open")).toBeNull();
    expect(await quoted.locator(".message-text").isVisible()).toBe(false);
    await quoted.getByText("Quoted text").click();
    await quoted.getByText("> Please try the new seal.").waitFor();

    const before = servers.smtp.mails.length;
    await page.getByRole("textbox", { name: /reply/i }).fill("A new kettle is on its way.");
    await page.keyboard.press("Enter");
    const out = await servers.smtp.mail(before + 1);
    expect(out.parsed.subject).toBe("Re: Broken kettle");
    expect(out.parsed.replyTo?.value[0]?.address).toBe(`support+${conversation.uuid}@acme.test`);
    expect(out.parsed.text?.trim()).toBe("A new kettle is on its way.");
  }, 30_000);
});

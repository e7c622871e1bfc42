// "Forgot your password?" in the web app, end to end: the sign-in page's link, the request form,
// the mail as a real SMTP server receives it, the link's page, and signing in with the new password.
import { afterAll, describe, expect, test } from "bun:test";
import { smtpUrlOf, startSmtpRecorder } from "../mail/smtp-recorder.ts";
import { browserSuite, haveChromium, shot } from "./browser.ts";

if (!haveChromium)
  console.warn("test/e2e/password-reset.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

const NEW_PASSWORD = "a fresh passphrase";

const smtp = await startSmtpRecorder();
afterAll(() => smtp.close());

describe.skipIf(!haveChromium)("resetting a forgotten password", () => {
  const suite = browserSuite({
    env: { PARLEY_SMTP_URL: smtpUrlOf(smtp) },
    // The server listens on a port of its own choosing: links in mail must name it.
    setup: async (server) => server.deps.files.links.setBase(server.base),
  });

  test("a link by mail sets the new password and signs in; the link then no longer works", async () => {
    const { base, first } = suite.server;
    const page = await suite.openPage();
    await page.goto(`${base}/app`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByRole("heading", { name: "Reset your password" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/app/auth/password/new");
    await page.getByLabel("Email").fill(first.email);
    await page.getByRole("button", { name: "Send the link" }).click();
    await page.getByRole("status").filter({ hasText: "Request for password reset is successful" }).waitFor();
    await shot(page, "90-password-reset-requested");

    const mail = await smtp.mail(1);
    expect(mail.to).toEqual([first.email]);
    const link = /(http\S+reset_password_token=[\w-]+)/.exec(mail.parsed.text ?? "")?.[1] ?? "";
    expect(link.startsWith(`${base}/app/auth/password/edit?reset_password_token=`)).toBe(true);

    await page.goto(link);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("New password again").fill("something else");
    await page.getByRole("button", { name: "Set the password and sign in" }).click();
    await page.getByText("The two passwords are not the same.").waitFor();
    await page.getByLabel("New password again").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set the password and sign in" }).click();
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    expect(new URL(page.url()).search).not.toContain("reset_password_token");

    const other = await suite.openPage();
    await other.goto(link);
    await other.getByLabel("New password", { exact: true }).fill("another passphrase");
    await other.getByLabel("New password again").fill("another passphrase");
    await other.getByRole("button", { name: "Set the password and sign in" }).click();
    await other.getByRole("alert").filter({ hasText: "This link has expired or was already used." }).waitFor();
    await shot(other, "91-password-reset-used-link");
    await other.getByRole("link", { name: "Ask for a new link" }).click();
    await other.getByRole("heading", { name: "Reset your password" }).waitFor();

    const fresh = await suite.openPage();
    await suite.signIn(fresh, first.email, NEW_PASSWORD);
    await fresh.getByRole("heading", { name: "Conversations" }).waitFor();
  }, 60_000);
});

// The agents' web app in a real browser: Debian's chromium driven by playwright-core, against a
// real server listening on a free port in this process. Screenshots of the main screens go to
// test/e2e/screenshots/ (gitignored) for review. Skipped only when /usr/bin/chromium is missing.
import { describe, expect, test } from "bun:test";
import {
  addAgent,
  browserSuite,
  expanded,
  focusedId,
  haveChromium,
  shot,
  startWebServer,
  type Suite,
  type WebServer,
} from "./browser.ts";

const AGENT = { email: "bea@example.com", password: "agent password 1" };

if (!haveChromium)
  console.warn("test/e2e/web.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

let server: WebServer;
let suite: Suite;

/** Runs fn against a fresh server of its own (its data and sign-in limits apart from the shared one). */
async function withOwnServer(fn: (own: WebServer) => Promise<void>): Promise<void> {
  const own = await startWebServer();
  const shared = server;
  server = suite.server = own;
  try {
    await fn(own);
  } finally {
    server = suite.server = shared;
    await own.stop();
  }
}

describe.skipIf(!haveChromium)("web app in chromium", () => {
  suite = browserSuite({
    setup: async (s) => {
      server = s;
      await addAgent(s, "Bea Agent", AGENT.email, AGENT.password);
    },
  });
  const { openPage, signIn } = suite;

  test("sign in with the first-run password and see the layout", async () => {
    const page = await openPage();
    await page.goto(`${server.base}/app`);
    // Not expect(promise).resolves: in Bun 1.4.5 it waits by re-entering the event loop, which runs
    // queued setImmediate callbacks out of order and desynchronises playwright-core (oven-sh/bun#39103).
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await shot(page, "01-sign-in");
    await signIn(page, server.first.email, server.first.password);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    expect(page.url()).toBe(`${server.base}/app/accounts/${server.first.account_id}/dashboard`);
    expect(await page.title()).toBe("Conversations · Parley");
    expect(await page.locator("header").innerText()).toContain("My Helpdesk");
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link").allInnerTexts()).toEqual(["Conversations", "Contacts", "Settings"]);
    expect(await page.getByRole("main").innerText()).toContain("No conversations are assigned to you here.");
    await shot(page, "02-conversations");
  }, 30_000);

  test("a wrong password shows the error and keeps the email", async () => {
    const page = await openPage();
    await signIn(page, server.first.email, "not the password");
    const alert = page.getByRole("alert");
    await alert.getByText("Invalid login credentials. Please try again.").waitFor();
    expect(await page.getByLabel("Email").inputValue()).toBe(server.first.email);
    expect(await page.getByLabel("Password").inputValue()).toBe("");
    await focusedId(page, "password");
    await shot(page, "03-sign-in-error");
  }, 30_000);

  test("the administrator renames the account in Settings and the header shows the new name", async () => {
    const page = await openPage();
    await signIn(page, server.first.email, server.first.password);
    await page.getByRole("link", { name: "Settings" }).click();
    const name = page.getByLabel("Account name");
    await name.waitFor();
    expect(page.url()).toBe(`${server.base}/app/accounts/${server.first.account_id}/settings/general`);
    // After an in-app navigation the new page's heading has focus.
    await page.waitForFunction(() => document.activeElement?.textContent === "Settings: Account", null, {
      timeout: 5000,
    });
    expect(await name.inputValue()).toBe("My Helpdesk");

    await name.fill("   ");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Enter the account's name.").waitFor();
    expect(await name.getAttribute("aria-invalid")).toBe("true");

    await name.fill("Acme Support");
    await page.getByLabel("Language", { exact: true }).selectOption("de");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("status").getByText("Saved.").waitFor();
    expect(await page.locator("header").innerText()).toContain("Acme Support");
    expect(server.deps.repos.accounts.byId(server.first.account_id)).toMatchObject({
      name: "Acme Support",
      locale: "de",
    });
    await shot(page, "04-settings-saved");

    await page.reload();
    await page.getByLabel("Account name").waitFor();
    expect(await page.locator("header").innerText()).toContain("Acme Support");
    expect(await page.getByLabel("Language", { exact: true }).inputValue()).toBe("de");
  }, 30_000);

  test("a sign-in from another tab replaces the session; this tab's next change still works", async () => {
    const page = await openPage();
    await signIn(page, server.first.email, server.first.password);
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("Account name").waitFor();
    // What another tab's sign-in does: a new session (and CSRF token) replaces the cookie.
    const status = await page.evaluate(
      async (body) => {
        const r = await fetch("/auth/sign_in", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return r.status;
      },
      { email: server.first.email, password: server.first.password },
    );
    expect(status).toBe(200);
    // The app still holds the old CSRF token: refused once with 403 csrf, it fetches the new one and retries.
    await page.getByLabel("Account name").fill("Acme Support Team");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("status").getByText("Saved.").waitFor();
    expect(server.deps.repos.accounts.byId(server.first.account_id)!.name).toBe("Acme Support Team");
  }, 30_000);

  test("sign out from the profile menu ends the session", async () => {
    const page = await openPage();
    await signIn(page, server.first.email, server.first.password);
    await page.getByRole("button", { name: /profile menu/ }).click();
    await shot(page, "05-profile-menu");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("status").getByText("You have signed out.").waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    const session = await page.evaluate(async () => (await fetch("/auth/session")).status);
    expect(session).toBe(401);
  }, 30_000);

  test("an agent sees no settings link, and /app/settings says not allowed", async () => {
    const page = await openPage();
    await signIn(page, AGENT.email, AGENT.password);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link").allInnerTexts()).toEqual(["Conversations", "Contacts"]);
    await page.goto(`${server.base}/app/settings`);
    await page.getByRole("heading", { name: "Not allowed" }).waitFor();
    expect(page.url()).toBe(`${server.base}/app/accounts/${server.first.account_id}/settings/general`);
    expect(await page.getByRole("main").innerText()).toContain("Only administrators of");
    expect(await page.getByLabel("Account name").count()).toBe(0);
    await shot(page, "06-agent-not-allowed");
  }, 30_000);

  test("at phone width (360 px) nothing scrolls sideways and Menu opens the navigation", async () => {
    const page = await openPage(360, 740);
    await signIn(page, server.first.email, server.first.password);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.isVisible()).toBe(false);
    await shot(page, "07-phone-conversations");
    await page.getByRole("button", { name: "Menu", exact: true }).click();
    await expanded(page, ".menu-button", true);
    await nav.waitFor({ state: "visible" });
    await shot(page, "08-phone-menu");
    await nav.getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("Account name").waitFor();
    await nav.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, "09-phone-settings");
  }, 30_000);

  test("keyboard: skip link first, visible focus, the profile menu opens with Enter and closes with Escape", async () => {
    const page = await openPage();
    await signIn(page, server.first.email, server.first.password);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).toBe("solid");
    const profile = page.getByRole("button", { name: /profile menu/ });
    await profile.focus();
    await page.keyboard.press("Enter");
    await expanded(page, ".profile-menu .disclosure-button", true);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Profile settings");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Notification settings");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("label")?.firstChild?.textContent)).toBe("Theme");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Sign out");
    await page.keyboard.press("Escape");
    await expanded(page, ".profile-menu .disclosure-button", false);
    expect(await page.evaluate(() => document.activeElement?.classList.contains("disclosure-button"))).toBe(true);
  }, 30_000);

  test("an administrator of two accounts switches between them from the header", async () => {
    await withOwnServer(async (own) => {
      await own.deps.services.accounts.bootstrap({
        account: "Second Shop",
        name: "Administrator",
        email: own.first.email,
      });
      const page = await openPage();
      await signIn(page, own.first.email, own.first.password);
      await page.getByRole("heading", { name: "Conversations" }).waitFor();
      // Filters belong to an account: set one here, and the other account starts without it.
      await page.getByRole("button", { name: /^All/ }).click();
      await page.locator('.tab-button[aria-pressed="true"]', { hasText: "All" }).waitFor();
      const switcher = page.getByRole("button", { name: "Account: My Helpdesk, switch account" });
      await switcher.click();
      await expanded(page, ".account-switcher .disclosure-button", true);
      await shot(page, "11-account-switcher");
      await page.getByRole("link", { name: "Second Shop" }).click();
      await page.getByRole("button", { name: "Account: Second Shop, switch account" }).waitFor();
      expect(page.url()).toBe(`${own.base}/app/accounts/2/dashboard`);
      await page.locator('.tab-button[aria-pressed="true"]', { hasText: "Mine" }).waitFor();
      await expanded(page, ".account-switcher .disclosure-button", false);
      // Closed while its server is the suite's: a late request of the page's must not count as
      // going outside the server once the shared one is back.
      await page.close();
    });
  }, 30_000);

  test("too many wrong passwords: the form says how long to wait", async () => {
    // A server of its own: its limiter must not lock the other tests out.
    await withOwnServer(async (own) => {
      const page = await openPage();
      for (let i = 0; i < 6; i++)
        await signIn(page, own.first.email, `wrong password ${i}`).then(() =>
          page.getByRole("alert").getByText(/./).waitFor(),
        );
      await page.getByRole("alert").getByText("Too many sign-in attempts. Try again in 5 minutes.").waitFor();
      await shot(page, "10-sign-in-rate-limited");
      await page.close();
    });
  }, 30_000);
});

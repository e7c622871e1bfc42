// The signed-in user's own settings in the web app: name and display name (the header follows), the
// password (a wrong current one refused; the new one keeps this browser signed in), and a new API
// access token shown once, which the API then takes while the old one is refused.
import { describe, expect, test } from "bun:test";
import { browserSuite, haveChromium, shot } from "./browser.ts";
import { accountApi, seedConversation } from "./seed.ts";

if (!haveChromium)
  console.warn(
    "test/e2e/profile-settings.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)",
  );

const NEW_PASSWORD = "my own new passphrase";

describe.skipIf(!haveChromium)("profile settings in chromium", () => {
  const suite = browserSuite();

  test("a signature set on the profile is added below replies while Sign is on, never below notes", async () => {
    const { base, first } = suite.server;
    const api = accountApi(base, first.account_id, first.api_access_token);
    const inbox = await api.post("/inboxes", { name: "Signed API", channel: { type: "api" } });
    const c = await seedConversation(api, inbox.id, { name: "Sia Customer" }, "Hello?");
    const page = await suite.openPage();
    await suite.signIn(page); // before the next test changes the password and the token
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${base}/app/accounts/${first.account_id}/profile/settings`);
    const signature = page.getByRole("form", { name: "Signature" });
    await signature.getByLabel("Signature").fill("Alex\nAcme support");
    await signature.getByRole("button", { name: "Save changes" }).click();
    await signature.getByRole("status").filter({ hasText: "Saved." }).waitFor();

    await page.goto(`${base}/app/accounts/${first.account_id}/conversations/${c.id}`);
    const sign = page.getByRole("button", { name: "Sign", exact: true });
    expect(await sign.getAttribute("aria-pressed")).toBe("false");
    await sign.click();
    await page.getByLabel("Reply to Sia Customer").fill("We are on it.");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".message.outgoing").getByText("We are on it.").waitFor();
    await page.getByRole("button", { name: "Private note" }).click();
    const note = page.getByLabel("Private note (only your team sees it)");
    await note.waitFor();
    expect(await sign.count()).toBe(0); // notes are never signed
    await note.fill("Checking the stock");
    await page.getByRole("button", { name: "Add note" }).click();
    await page.getByText("Checking the stock", { exact: true }).waitFor(); // the thread, not the list's excerpt
    const messages = (await api.get(`/conversations/${c.id}/messages`)).payload as { content: string }[];
    expect(messages.slice(-2).map((m) => m.content)).toEqual([
      "We are on it.\n\nAlex\nAcme support",
      "Checking the stock",
    ]);
  }, 60_000);

  test("name, password and access token, each from the profile page", async () => {
    const { base, first } = suite.server;
    const page = await suite.openPage();
    await suite.signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.getByRole("button", { name: /profile menu/ }).click();
    await page.getByRole("link", { name: "Profile settings" }).click();
    await page.getByRole("heading", { name: "Your profile" }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/accounts/${first.account_id}/profile/settings`);

    const about = page.getByRole("form", { name: "About you" });
    await about.getByLabel("Name", { exact: true }).fill("Alex Admin");
    await about.getByLabel("Display name").fill("Alex");
    await about.getByRole("button", { name: "Save changes" }).click();
    await about.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await page.getByRole("button", { name: /^Alex\b.*profile menu/i }).waitFor(); // the header follows

    const password = page.getByRole("form", { name: "Password" });
    await password.getByLabel("Current password").fill("not my password");
    await password.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await password.getByLabel("New password again").fill(NEW_PASSWORD);
    await password.getByRole("button", { name: "Change password" }).click();
    await password.getByText("Current password Invalid current password").waitFor();
    await password.getByLabel("Current password").fill(first.password);
    await password.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("status").filter({ hasText: "Password changed." }).waitFor();
    await page.getByRole("heading", { name: "Your profile" }).waitFor(); // still signed in

    const tokens = page.getByRole("region", { name: "API access token" });
    await tokens.getByRole("button", { name: "Make a new access token" }).click();
    await tokens.getByRole("button", { name: "Make a new access token" }).click(); // the confirmation
    const token =
      (await page.getByRole("region", { name: "Your new access token" }).locator("code").textContent()) ?? "";
    expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    await shot(page, "64-profile-settings");
    const asNew = await fetch(`${base}/api/v1/profile`, { headers: { api_access_token: token } });
    expect(((await asNew.json()) as { name: string }).name).toBe("Alex Admin");
    const asOld = await fetch(`${base}/api/v1/profile`, { headers: { api_access_token: first.api_access_token } });
    expect(asOld.status).toBe(401);

    const fresh = await suite.openPage();
    await suite.signIn(fresh, first.email, NEW_PASSWORD);
    await fresh.getByRole("heading", { name: "Conversations" }).waitFor();
  }, 60_000);
});

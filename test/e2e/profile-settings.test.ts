// The signed-in user's own settings in the web app: name and display name (the header follows), the
// password (a wrong current one refused; the new one keeps this browser signed in), and a new API
// access token shown once, which the API then takes while the old one is refused.
import { describe, expect, test } from "bun:test";
import { browserSuite, haveChromium, shot } from "./browser.ts";

if (!haveChromium)
  console.warn(
    "test/e2e/profile-settings.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)",
  );

const NEW_PASSWORD = "my own new passphrase";

describe.skipIf(!haveChromium)("profile settings in chromium", () => {
  const suite = browserSuite();

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

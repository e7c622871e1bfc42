// Canned responses in the browser: created in Settings (a taken short code is refused in words),
// then inserted in the reply box with the keyboard only: "/" and part of the short code, ↓, Enter.
import { describe, expect, test } from "bun:test";
import { browserSuite, haveChromium, shot, type WebServer } from "./browser.ts";
import { accountApi, seedConversation } from "./seed.ts";

if (!haveChromium)
  console.warn(
    "test/e2e/canned-responses.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)",
  );

let server: WebServer;

describe.skipIf(!haveChromium)("canned responses in chromium", () => {
  const { openPage, signIn } = browserSuite({ setup: async (s) => void (server = s) });

  test("created in settings, inserted with the keyboard only", async () => {
    const admin = accountApi(server.base, server.first.account_id, server.first.api_access_token);
    await admin.post("/canned_responses", { short_code: "shipping", content: "Orders ship within 2 days." });
    const inbox = (await admin.post("/inboxes", { name: "Support API", channel: { type: "api" } })).id;
    const c = await seedConversation(admin, inbox, { name: "Cal Canned" }, "When will it ship?");
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();

    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/settings/canned`);
    await page.getByLabel("Short code").fill("Shipping");
    await page.getByLabel("Content").fill("duplicate");
    await page.getByRole("button", { name: "Create canned response" }).click();
    await page.getByText("Short code has already been taken").waitFor();
    await page.getByLabel("Short code").fill("ship-eu");
    await page.getByLabel("Content").fill("EU orders ship from Lisbon, **2–4 days**.");
    await page.getByRole("button", { name: "Create canned response" }).click();
    await page.getByRole("status").getByText("/ship-eu created.").waitFor();
    expect(await page.getByRole("table", { name: "Canned responses" }).locator("code").allInnerTexts()).toEqual([
      "/ship-eu",
      "/shipping",
    ]);
    await shot(page, "64-settings-canned");

    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/conversations/${c.id}`);
    const box = page.getByLabel("Reply to Cal Canned");
    await box.pressSequentially("/ship");
    const list = page.getByRole("listbox");
    expect(await list.getByRole("option").allInnerTexts()).toEqual([
      "/ship-eu: EU orders ship from Lisbon, **2–4 days**.",
      "/shipping: Orders ship within 2 days.",
    ]);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    expect(await box.inputValue()).toBe("Orders ship within 2 days.");
    await page.keyboard.press("Enter"); // sends
    await page.locator(".message.outgoing").getByText("Orders ship within 2 days.").waitFor();
  }, 60_000);
});

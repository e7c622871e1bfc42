// The reply box's emoji picker with the keyboard: it opens on the first emoji, arrows move,
// Enter puts the emoji where the caret was, and focus returns to the box; Escape closes it.
import { describe, expect, test } from "bun:test";
import { browserSuite, focusedId, haveChromium, type WebServer } from "./browser.ts";
import { accountApi, seedConversation } from "./seed.ts";

if (!haveChromium)
  console.warn("test/e2e/emoji.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

let server: WebServer;

describe.skipIf(!haveChromium)("emoji picker in chromium", () => {
  const { openPage, signIn } = browserSuite({ setup: async (s) => void (server = s) });

  test("pick with the keyboard, inserted at the caret", async () => {
    const admin = accountApi(server.base, server.first.account_id, server.first.api_access_token);
    const inbox = (await admin.post("/inboxes", { name: "Support API", channel: { type: "api" } })).id;
    const c = await seedConversation(admin, inbox, { name: "Eve Emoji" }, "Thank you!");
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/conversations/${c.id}`);
    const box = page.getByLabel("Reply to Eve Emoji");
    await box.fill("You are welcome !");
    await box.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(16, 16)); // before the "!"

    await page.getByRole("button", { name: "Insert an emoji" }).click();
    const grid = page.getByRole("group", { name: "Emojis" });
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "grinning");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Enter");
    expect(await box.inputValue()).toBe("You are welcome 😊!");
    await focusedId(page, "reply-text");
    await grid.waitFor({ state: "detached" });

    await page.getByRole("button", { name: "Insert an emoji" }).click();
    await grid.waitFor();
    await page.keyboard.press("Escape");
    await grid.waitFor({ state: "detached" });
    await page.waitForFunction(() => document.activeElement?.textContent?.includes("Insert an emoji"));
  }, 60_000);
});

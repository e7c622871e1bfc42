// Chat markdown in the thread: bold, a list and a safe link render as elements, while HTML and a
// javascript: link a customer sends stay visible text.
import { describe, expect, test } from "bun:test";
import { browserSuite, haveChromium, type WebServer } from "./browser.ts";
import { accountApi, seedConversation } from "./seed.ts";

if (!haveChromium)
  console.warn("test/e2e/rich-text.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

let server: WebServer;

describe.skipIf(!haveChromium)("rich text in chromium", () => {
  const { openPage, signIn } = browserSuite({ setup: async (s) => void (server = s) });

  test("markdown renders; HTML and javascript: links do not", async () => {
    const admin = accountApi(server.base, server.first.account_id, server.first.api_access_token);
    const inbox = (await admin.post("/inboxes", { name: "Support API", channel: { type: "api" } })).id;
    const text =
      "**Order 42** is late:\n- box *one*\n- box two\nSee [tracking](https://track.example/42) <img src=x onerror=alert(1)> [x](javascript:alert(1))";
    const c = await seedConversation(admin, inbox, { name: "Rob Rich" }, text);
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/conversations/${c.id}`);
    const message = page.locator(".message.incoming .message-text");
    await message.waitFor();
    expect(await message.locator("strong").innerText()).toBe("Order 42");
    expect(await message.locator("li").allInnerTexts()).toEqual(["box one", "box two"]);
    expect(await message.locator("em").innerText()).toBe("one");
    const link = message.getByRole("link", { name: "tracking" });
    expect([await link.getAttribute("href"), await link.getAttribute("rel")]).toEqual([
      "https://track.example/42",
      "noopener noreferrer nofollow",
    ]);
    expect(await message.locator("img").count()).toBe(0);
    expect(await message.getByRole("link").count()).toBe(1);
    expect(await message.innerText()).toContain("<img src=x onerror=alert(1)> [x](javascript:alert(1))");
  }, 60_000);
});

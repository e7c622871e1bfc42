// This round's screens at phone width (360 px): nothing scrolls sideways on the contacts list, a
// contact's page, Settings › Canned responses, and with the notifications panel open.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { browserSuite, haveChromium, shot, type WebServer } from "./browser.ts";
import { accountApi, seedConversation } from "./seed.ts";

if (!haveChromium)
  console.warn("test/e2e/phone-width.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

let server: WebServer;
const width = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe.skipIf(!haveChromium)("new screens at 360 px", () => {
  const { openPage, signIn } = browserSuite({ setup: async (s) => void (server = s) });

  test("contacts, a contact, canned responses and the notifications panel fit the screen", async () => {
    const admin = accountApi(server.base, server.first.account_id, server.first.api_access_token);
    const inbox = (await admin.post("/inboxes", { name: "Support API", channel: { type: "api" } })).id;
    const c = await seedConversation(
      admin,
      inbox,
      { name: "Maximilian Longname-Example", email: "maximilian.longname-example@a-rather-long-domain.example" },
      "Hello",
    );
    await admin.post("/canned_responses", {
      short_code: "a-rather-long-short-code-for-a-phone",
      content: "A canned response long enough to wrap on a phone screen, with a link https://example.com/a/long/path",
    });
    const page = await openPage(360, 740);
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    const base = `${server.base}/app/accounts/${server.first.account_id}`;

    await page.goto(`${base}/contacts`);
    await page.getByRole("link", { name: "Maximilian Longname-Example" }).waitFor();
    expect({ screen: "contacts", width: await width(page) }).toEqual({ screen: "contacts", width: 360 });
    await shot(page, "65-phone-contacts");

    await page.goto(`${base}/contacts/${c.contactId}`);
    await page.getByRole("heading", { name: "Maximilian Longname-Example", level: 1 }).waitFor();
    expect({ screen: "contact", width: await width(page) }).toEqual({ screen: "contact", width: 360 });

    await page.goto(`${base}/settings/canned`);
    await page.getByRole("heading", { name: "Canned responses", exact: true }).waitFor();
    expect({ screen: "canned", width: await width(page) }).toEqual({ screen: "canned", width: 360 });

    await page.getByRole("button", { name: /^Notifications, \d+ unread$/ }).click();
    await page.getByRole("heading", { name: "Notifications" }).waitFor();
    expect({ screen: "notifications", width: await width(page) }).toEqual({ screen: "notifications", width: 360 });
  }, 60_000);
});

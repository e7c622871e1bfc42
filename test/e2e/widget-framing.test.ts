// The website chat refuses to be framed: a page on an origin the inbox does not allow cannot frame the chat
// (the inbox, its host site and the stranger's page: ./widget-host.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, type Chromium } from "./browser.ts";
import { startEmbeddedChat, type EmbeddedChat, type HostSite } from "./widget-host.ts";

if (!haveChromium)
  console.warn("test/e2e/widget-framing.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

describe.skipIf(!haveChromium)("website chat embedded on another site", () => {
  let world: EmbeddedChat;
  let browser: Chromium;
  let stranger: HostSite;

  beforeAll(async () => {
    world = await startEmbeddedChat();
    ({ browser, stranger } = world);
  }, 60_000);

  afterAll(async () => {
    await world?.stop();
  });

  test("a page on an origin the inbox does not allow cannot frame the chat", async () => {
    const page = await browser.context.newPage();
    const refused = page.waitForEvent("console", (m) => m.text().includes("frame-ancestors"));
    await page.goto(stranger.origin);
    expect((await refused).text()).toContain(`frame-ancestors`);
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(await frame.locator("#chat").count()).toBe(0);
    await page.close();
  }, 60_000);
});

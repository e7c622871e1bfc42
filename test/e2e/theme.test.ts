// Dark mode: the web app follows the system's colour scheme, the profile menu overrides it, and the
// choice outlives a reload (it is kept in the browser).
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { browserSuite, haveChromium, shot, until } from "./browser.ts";

if (!haveChromium)
  console.warn("test/e2e/theme.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

const theme = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const LIGHT_BG = "rgb(245, 247, 250)";
const DARK_BG = "rgb(18, 21, 27)";

describe.skipIf(!haveChromium)("light and dark", () => {
  const { openPage, signIn } = browserSuite();

  test("follows the system, then the user's choice, which a reload keeps", async () => {
    const page = await openPage();
    await page.emulateMedia({ colorScheme: "dark" });
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    expect([await theme(page), await background(page)]).toEqual(["dark", DARK_BG]);
    await shot(page, "50-inbox-dark");

    await page.emulateMedia({ colorScheme: "light" }); // the system changes while the page is open
    await until(async () => (await theme(page)) === "light");
    expect(await background(page)).toBe(LIGHT_BG);

    await page.getByRole("button", { name: /profile menu/ }).click();
    await page.getByLabel("Theme").selectOption("dark");
    expect([await theme(page), await background(page)]).toEqual(["dark", DARK_BG]);
    await page.reload();
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    expect(await theme(page)).toBe("dark"); // the system says light; the choice wins

    await page.getByRole("button", { name: /profile menu/ }).click();
    await page.getByLabel("Theme").selectOption("system");
    expect([await theme(page), await background(page)]).toEqual(["light", LIGHT_BG]);
  }, 60_000);
});

// The inbox's filters live in the address: a reload or a shared link shows the same list, moving
// between conversations keeps them, going back restores the ones before, and a conversation a link
// leads to stays in sight in the list although the list's page does not hold it.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { browserSuite, haveChromium, until, type WebServer } from "./browser.ts";
import { accountApi, seedConversation, type AccountApi } from "./seed.ts";

if (!haveChromium)
  console.warn("test/e2e/inbox-address.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

let server: WebServer;
let admin: AccountApi;
let inboxId: number;

const row = (page: Page, id: number) => page.locator(`[data-conversation-id="${id}"]`);
const search = (page: Page) => new URL(page.url()).search;

describe.skipIf(!haveChromium)("the inbox's address", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      server = s;
      admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
      inboxId = (await admin.post("/inboxes", { name: "Support API", channel: { type: "api" } })).id;
    },
  });

  test("filters go into the address, survive a reload and a move to a conversation, and back restores", async () => {
    const done = await seedConversation(
      admin,
      inboxId,
      { name: "Rui Resolved", email: "rui@example.com" },
      "Thanks, all sorted",
    );
    await admin.post(`/conversations/${done.id}/toggle_status`, { status: "resolved" });
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    expect(search(page)).toBe("");

    await page.getByRole("button", { name: /^All/ }).click();
    await until(() => search(page) === "?tab=all");
    await page.getByLabel("Status", { exact: true }).selectOption("resolved");
    await until(() => search(page) === "?tab=all&status=resolved");
    await row(page, done.id).waitFor();

    await page.reload();
    await row(page, done.id).waitFor();
    expect(await page.getByLabel("Status", { exact: true }).inputValue()).toBe("resolved");
    expect(await page.getByRole("button", { name: /^All/ }).getAttribute("aria-pressed")).toBe("true");

    await row(page, done.id).click();
    await page.getByRole("heading", { name: "Rui Resolved", level: 2 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/accounts/${server.first.account_id}/conversations/${done.id}`);
    expect(search(page)).toBe("?tab=all&status=resolved");

    await page.getByLabel("Status", { exact: true }).selectOption("open");
    await until(() => search(page) === "?tab=all");
    await page.goBack(); // to the list before the conversation, with its filters
    await until(async () => (await page.getByLabel("Status", { exact: true }).inputValue()) === "resolved");
    await row(page, done.id).waitFor();
    expect(search(page)).toBe("?tab=all&status=resolved");

    // Another screen and back through the sidebar: the list the agent left.
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { name: "Name and language" }).waitFor();
    await page.getByRole("link", { name: "Conversations" }).click();
    await row(page, done.id).waitFor();
    expect(search(page)).toBe("?tab=all&status=resolved");
  }, 60_000);

  test("a shared link to a conversation outside the list's page shows it on top of the list", async () => {
    const other = await seedConversation(
      admin,
      inboxId,
      { name: "Sam Elsewhere", email: "sam@example.com" },
      "Is anyone there?",
    );
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    // Mine + open: the conversation is unassigned, so the list itself does not hold it.
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/conversations/${other.id}`);
    await page.getByRole("heading", { name: "Sam Elsewhere", level: 2 }).waitFor();
    const pinned = page.getByRole("list", { name: "Open conversation" });
    await pinned.locator(`[data-conversation-id="${other.id}"]`).waitFor();
    expect(await pinned.locator(".conversation-item").count()).toBe(1);
  }, 60_000);
});

// The agents' inbox in a real browser: a customer's message that arrives through the API shows up
// without a reload; the agent opens it, replies, labels and resolves it; shortcuts, the contact
// panel, and the phone-width screens. Screenshots go to test/e2e/screenshots/.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { addAgent, haveChromium, launchChromium, openPage as open, shot, signIn as signInAt, startWebServer, until, type Chromium, type WebServer } from "./browser.ts";
import { accountApi, seedConversation, type AccountApi } from "./seed.ts";

if (!haveChromium) console.warn("test/e2e/inbox.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

const AGENT = { email: "cam@example.com", password: "agent password 2" };

let server: WebServer;
let browser: Chromium;
let admin: AccountApi;
let inboxId: number;
let problems: string[] = [];

const openPage = (width?: number, height?: number) => open(browser.context, () => server.base, problems, width, height);
const signIn = (page: Page, email = server.first.email, password = server.first.password) => signInAt(page, server.base, email, password);
const list = (page: Page) => page.getByRole("list", { name: /^Conversations/ });
const conversationRow = (page: Page, id: number) => page.locator(`[data-conversation-id="${id}"]`);

describe.skipIf(!haveChromium)("the inbox in chromium", () => {
  beforeAll(async () => {
    server = await startWebServer();
    admin = accountApi(server.base, server.first.account_id, server.first.api_access_token);
    inboxId = (await admin.post("/inboxes", { name: "Support API", channel: { type: "api" } })).id;
    await addAgent(server, "Cam Agent", AGENT.email, AGENT.password);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async () => {
    for (const page of browser.context.pages()) await page.close();
    const seen = problems;
    problems = [];
    expect(seen).toEqual([]);
  });

  test("a message arriving through the API appears without a reload; open, reply, label, resolve", async () => {
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.getByRole("button", { name: /^Unassigned/ }).click();
    await page.getByText("No conversations match these filters.").waitFor();

    // The customer writes in while the page is open.
    const c = await seedConversation(admin, inboxId, { name: "Dana Customer", email: "dana@example.com" }, "Hello, my order #1234 has not arrived.");
    // The poller looks every 4 s; it may see the conversation before its first message.
    await conversationRow(page, c.id).getByText("Hello, my order #1234 has not arrived.").waitFor({ timeout: 15_000 });
    expect(await conversationRow(page, c.id).innerText()).toContain("Dana Customer");
    expect(await page.getByRole("button", { name: /^Unassigned/ }).innerText()).toContain("1");
    await shot(page, "20-inbox-list");

    await conversationRow(page, c.id).click();
    await page.getByRole("heading", { name: "Dana Customer", level: 2 }).waitFor();
    expect(page.url()).toBe(`${server.base}/app/accounts/${server.first.account_id}/conversations/${c.id}`);
    await page.locator(".message.incoming").getByText("Hello, my order #1234 has not arrived.").waitFor();
    // Opening it marked it seen.
    await until(() => (server.deps.db.query("SELECT agent_last_seen_at AS seen FROM conversations WHERE display_id = ?").get(c.id) as { seen: number | null }).seen);

    await page.getByLabel("Reply to Dana Customer").fill("Sorry to hear that! Let me check.");
    await page.keyboard.press("Enter");
    await page.locator(".message.outgoing").getByText("Sorry to hear that! Let me check.").waitFor();
    expect(await page.getByLabel("Reply to Dana Customer").inputValue()).toBe("");
    const messages = await admin.get(`/conversations/${c.id}/messages`);
    expect(messages.payload.map((m: { content: string; message_type: number; private: boolean }) => [m.content, m.message_type, m.private])).toEqual([
      ["Hello, my order #1234 has not arrived.", 0, false],
      ["Sorry to hear that! Let me check.", 1, false],
    ]);

    await page.getByLabel("Add a label").fill("shipping");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByRole("button", { name: "Remove label shipping" }).waitFor();
    expect((await admin.get(`/conversations/${c.id}/labels`)).payload).toEqual(["shipping"]);
    await page.locator(".message.activity").getByText(/added shipping/).waitFor();
    await shot(page, "21-conversation");

    await page.getByRole("button", { name: "Resolve" }).click();
    await page.getByRole("button", { name: "Reopen" }).waitFor();
    expect((await admin.get(`/conversations/${c.id}`)).status).toBe("resolved");
    // The list shows open conversations: the resolved one leaves it.
    await conversationRow(page, c.id).waitFor({ state: "detached" });
  }, 60_000);
});

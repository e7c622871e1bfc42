// The agents' inbox in a real browser: an API message shows up without a reload; open, reply, label, resolve;
// shortcuts, an agent's own view, mark as unread, phone width. Screenshots go to test/e2e/screenshots/.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { browserSuite, focusedId, haveChromium, shot, until, type WebServer } from "./browser.ts";
import { AGENT, supportInbox } from "./inbox-fixtures.ts";
import { seedConversation, type AccountApi } from "./seed.ts";

if (!haveChromium)
  console.warn(
    "test/e2e/inbox-conversations.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)",
  );

let server: WebServer;
let admin: AccountApi;
let inboxId: number;
let agentId: number;

const list = (page: Page) => page.getByRole("list", { name: /^Conversations/ });
const conversationRow = (page: Page, id: number) => page.locator(`[data-conversation-id="${id}"]`);

describe.skipIf(!haveChromium)("the inbox in chromium", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      server = s;
      ({ admin, inboxId, agentId } = await supportInbox(s));
    },
  });

  test("a message arriving through the API appears without a reload; open, reply, label, resolve", async () => {
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.getByRole("button", { name: /^Unassigned/ }).click();
    await page.getByText("No conversations match these filters.").waitFor();

    // The customer writes in while the page is open.
    const c = await seedConversation(
      admin,
      inboxId,
      { name: "Dana Customer", email: "dana@example.com" },
      "Hello, my order #1234 has not arrived.",
    );
    // Over the socket: the conversation's events refetch the list's first page.
    await conversationRow(page, c.id).getByText("Hello, my order #1234 has not arrived.").waitFor();
    expect(await conversationRow(page, c.id).innerText()).toContain("Dana Customer");
    expect(await page.getByRole("button", { name: /^Unassigned/ }).innerText()).toContain("1");
    await shot(page, "20-inbox-list");

    await conversationRow(page, c.id).click();
    await page.getByRole("heading", { name: "Dana Customer", level: 2 }).waitFor();
    // The list's filters (the Unassigned tab) travel in the address.
    expect(page.url()).toBe(
      `${server.base}/app/accounts/${server.first.account_id}/conversations/${c.id}?tab=unassigned`,
    );
    await page.locator(".message.incoming").getByText("Hello, my order #1234 has not arrived.").waitFor();
    // Opening it marked it seen.
    await until(
      () =>
        (
          server.deps.db
            .query("SELECT agent_last_seen_at AS seen FROM conversations WHERE display_id = ?")
            .get(c.id) as { seen: number | null }
        ).seen,
    );

    await page.getByLabel("Reply to Dana Customer").fill("Sorry to hear that! Let me check.");
    await page.keyboard.press("Enter");
    await page.locator(".message.outgoing").getByText("Sorry to hear that! Let me check.").waitFor();
    // The box empties when the server has answered, which may come just after the socket's copy of the message.
    await until(async () => (await page.getByLabel("Reply to Dana Customer").inputValue()) === "");
    const messages = await admin.get(`/conversations/${c.id}/messages`);
    expect(
      messages.payload.map((m: { content: string; message_type: number; private: boolean }) => [
        m.content,
        m.message_type,
        m.private,
      ]),
    ).toEqual([
      ["Hello, my order #1234 has not arrived.", 0, false],
      ["Sorry to hear that! Let me check.", 1, false],
    ]);

    await page.getByLabel("Add a label").fill("shipping");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByRole("button", { name: "Remove label shipping" }).waitFor();
    expect((await admin.get(`/conversations/${c.id}/labels`)).payload).toEqual(["shipping"]);
    await page
      .locator(".message.activity")
      .getByText(/added shipping/)
      .waitFor();
    await shot(page, "21-conversation");

    await page.getByRole("button", { name: "Resolve" }).click();
    await page.getByRole("button", { name: "Reopen" }).waitFor();
    expect((await admin.get(`/conversations/${c.id}`)).status).toBe("resolved");
    // The list shows open conversations: the resolved one leaves it; the filters find it again.
    await conversationRow(page, c.id).waitFor({ state: "detached" });
    await page.getByLabel("Status", { exact: true }).selectOption("resolved");
    await conversationRow(page, c.id).waitFor();
    await page.getByLabel("Label", { exact: true }).selectOption("shipping");
    await page.getByLabel("Inbox", { exact: true }).selectOption({ label: "Support API" });
    await conversationRow(page, c.id).waitFor();
    expect(await list(page).getByRole("listitem").count()).toBe(1);
    await page.getByLabel("Label", { exact: true }).selectOption("");
    await page.getByLabel("Status", { exact: true }).selectOption("open");
    await page.getByText("No conversations match these filters.").waitFor();
    // A search looks in every status.
    await page.getByLabel("Search messages").fill("order #1234");
    await conversationRow(page, c.id).waitFor();
    expect(await page.getByLabel("Status", { exact: true }).isDisabled()).toBe(true);
  }, 60_000);

  test("shortcuts move through the list, write a private note and resolve; never while typing; ? lists them", async () => {
    const first = await seedConversation(admin, inboxId, { name: "Hugo Long" }, "message 1");
    for (let i = 2; i <= 30; i++)
      await admin.post(`/conversations/${first.id}/messages`, {
        content: `message ${i}`,
        message_type: i % 2 ? "incoming" : "outgoing",
      });
    await admin.post(`/conversations/${first.id}/messages`, {
      content: "Please rate the conversation",
      content_type: "input_csat",
      content_attributes: {
        submitted_values: { csat_survey_response: { rating: 4, feedback_message: "Quick and kind." } },
      },
    });
    const second = await seedConversation(admin, inboxId, { name: "Ines Short" }, "A short one");

    const page = await openPage();
    await signIn(page);
    await page.getByRole("button", { name: /^All/ }).click();
    await conversationRow(page, first.id).waitFor();
    const at = (id: number) =>
      page.waitForURL(`${server.base}/app/accounts/${server.first.account_id}/conversations/${id}?tab=all`);
    await page.locator("body").press("j"); // no conversation open: the first in the list
    await at(second.id);
    await page.keyboard.press("j");
    await at(first.id);
    await page.keyboard.press("k");
    await at(second.id);
    await page.keyboard.press("Alt+ArrowDown");
    await at(first.id);
    await page.getByRole("heading", { name: "Hugo Long", level: 2 }).waitFor();

    // Typed into a field, the same keys are text.
    await page.getByLabel("Search messages").fill("jk");
    await page.getByLabel("Search messages").press("k");
    // The search goes into the address a moment later (state in the URL): wait for it, then the
    // conversation must still be the same one.
    await page.waitForURL(
      `${server.base}/app/accounts/${server.first.account_id}/conversations/${first.id}?tab=all&q=jkk`,
    );
    await page.getByLabel("Search messages").fill("");

    // The latest 20 first; older ones on request. (Clearing the search reloads the thread: wait for
    // it to settle on its page rather than counting whatever is on screen at that instant.)
    await page.getByRole("button", { name: "Load older messages" }).waitFor();
    await page
      .waitForFunction(() => document.querySelectorAll(".messages > li").length === 20)
      .catch(async (error) => {
        // Failed in CI once in many runs: say what the thread showed instead.
        const shown = (await page.locator(".messages > li").allInnerTexts()).map((t) => t.slice(0, 30));
        throw new Error(`the thread shows ${shown.length} messages, not 20: ${JSON.stringify(shown)}`, {
          cause: error,
        });
      });
    expect(await page.locator(".messages > li").count()).toBe(20);
    await page.getByRole("button", { name: "Load older messages" }).click();
    await page.getByText("message 1", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Load older messages" }).count()).toBe(0);
    await page.locator(".csat").getByText("Rated 4 of 5").waitFor();
    expect(await page.locator(".csat-feedback").innerText()).toBe("Quick and kind.");

    await page.locator("body").press("p");
    const note = page.getByLabel("Private note (only your team sees it)");
    await until(() => note.evaluate((el) => el === document.activeElement), 5000);
    await note.pressSequentially("Check the warehouse");
    await note.press("Shift+Enter");
    await note.pressSequentially("before replying");
    expect(await note.inputValue()).toBe("Check the warehouse\nbefore replying");
    await note.press("Enter");
    await page.locator(".message.note").getByText("before replying").waitFor();
    const last = (await admin.get(`/conversations/${first.id}/messages`)).payload.at(-1);
    expect([last.content, last.private, last.message_type]).toEqual(["Check the warehouse\nbefore replying", true, 1]);
    await note.press("Escape");
    await page.locator("body").press("r");
    await until(() => page.getByLabel("Reply to Hugo Long").evaluate((el) => el === document.activeElement), 5000);
    await page.getByLabel("Reply to Hugo Long").press("Escape");
    await shot(page, "22-conversation-note-csat");

    await page.locator("body").press("e");
    await page.getByRole("button", { name: "Reopen" }).waitFor();
    expect((await admin.get(`/conversations/${first.id}`)).status).toBe("resolved");
    await page.getByRole("status").getByText("Conversation resolved.").waitFor();

    await page.locator("body").press("?");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await dialog.waitFor();
    expect(await dialog.getByRole("row").count()).toBe(8);
    await shot(page, "23-shortcuts");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
  }, 60_000);

  test("an agent sees the conversations of their inboxes and no settings; assigning moves it to Mine", async () => {
    const c = await seedConversation(admin, inboxId, { name: "Kim Member" }, "For the agent");
    const page = await openPage();
    await signIn(page, AGENT.email, AGENT.password);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link").allInnerTexts()).toEqual([
      "Conversations",
      "Contacts",
    ]);
    await page.getByRole("button", { name: /^All/ }).click();
    await page.getByText("No conversations match these filters.").waitFor(); // not a member of the inbox yet

    // Joining an inbox is no conversation event: the list shows it with the next event there (the
    // stream checks permissions per event, so the agent gets it at once), or on the next load.
    await admin.post("/inbox_members", { inbox_id: inboxId, user_ids: [agentId] });
    await admin.post(`/conversations/${c.id}/messages`, { content: "Anyone there?", message_type: "incoming" });
    await conversationRow(page, c.id).getByText("Anyone there?").waitFor();
    await conversationRow(page, c.id).click();
    await page.getByLabel("Assigned agent").selectOption({ label: "Cam Agent" });
    await page.locator(".message.activity").getByText("Cam Agent self-assigned this conversation").waitFor();
    await page.getByRole("button", { name: /^Mine/ }).click();
    // The row may still be the All tab's while Mine loads: wait for Mine's own count.
    await page.locator(".tab-button", { hasText: "Mine" }).filter({ hasText: "1" }).waitFor();
    await conversationRow(page, c.id).waitFor();
    expect((await admin.get(`/conversations/${c.id}`)).meta.assignee.id).toBe(agentId);

    const response = await page.evaluate(
      async (url) => (await fetch(url)).status,
      `/api/v1/accounts/${server.first.account_id}/webhooks`,
    );
    expect(response).toBe(403);
  }, 60_000);

  test("mark as unread: back to the list, where the conversation shows its unread message again", async () => {
    const c = await seedConversation(admin, inboxId, { name: "Uma Later" }, "Call me back tomorrow");
    const page = await openPage();
    await signIn(page);
    await page.getByRole("button", { name: /^All/ }).click();
    await conversationRow(page, c.id).click();
    await page.getByRole("heading", { name: "Uma Later", level: 2 }).waitFor();
    await until(async () => (await admin.get(`/conversations/${c.id}`)).unread_count === 0);

    await page.getByRole("button", { name: "More status options" }).click();
    await page.getByRole("button", { name: "Mark as unread" }).click();
    await page.waitForURL(`${server.base}/app/accounts/${server.first.account_id}/dashboard?tab=all`);
    await focusedId(page, "list-title");
    await conversationRow(page, c.id).getByText(", 1 unread").waitFor();
    expect((await admin.get(`/conversations/${c.id}`)).unread_count).toBe(1);
  }, 60_000);

  test("at 360 px the list and the conversation are separate screens, and nothing scrolls sideways", async () => {
    const c = await seedConversation(
      admin,
      inboxId,
      { name: "Lou Phone" },
      "Writing from my phone, with a rather long message that has to wrap on a small screen.",
    );
    const page = await openPage(360, 740);
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.getByRole("button", { name: /^Unassigned/ }).click();
    await conversationRow(page, c.id).waitFor();
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await width()).toBeLessThanOrEqual(360);
    await shot(page, "26-phone-list");

    await conversationRow(page, c.id).click();
    await page.getByRole("heading", { name: "Lou Phone", level: 2 }).waitFor();
    expect(await list(page).isVisible()).toBe(false);
    await focusedId(page, "thread-title");
    expect(await width()).toBeLessThanOrEqual(360);
    await page.getByLabel("Reply to Lou Phone").fill("Thanks, Lou!");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".message.outgoing").getByText("Thanks, Lou!").waitFor();
    await shot(page, "27-phone-conversation");

    await page.getByRole("button", { name: "Details" }).click();
    await page.getByRole("complementary", { name: "Conversation details" }).getByText("Lou Phone").first().waitFor();
    expect(await page.getByLabel("Reply to Lou Phone").isVisible()).toBe(false);
    expect(await width()).toBeLessThanOrEqual(360);
    await shot(page, "28-phone-details");
    await page.getByRole("button", { name: "Back to the conversation" }).click();
    await page.getByLabel("Reply to Lou Phone").waitFor();

    await page.getByRole("link", { name: "Conversations", exact: false }).filter({ hasText: "←" }).click();
    await list(page).waitFor();
    await focusedId(page, "list-title");
  }, 60_000);
});

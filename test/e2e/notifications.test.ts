// Notifications in the browser, live: an agent is assigned a conversation and mentioned in a note
// while their page is open; the bell and the tab's title count them without a reload, the panel
// lists them, opening one leads to its conversation and marks it read, and "Mark all read" clears.
import { describe, expect, test } from "bun:test";
import { addAgent, browserSuite, haveChromium, shot, until, type WebServer } from "./browser.ts";
import { accountApi, seedConversation, type AccountApi } from "./seed.ts";
import { recordSubscriptions, subscribed } from "./subscriptions.ts";

if (!haveChromium)
  console.warn("test/e2e/notifications.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

const AGENT = { email: "nia@example.com", password: "agent password 6" };

let server: WebServer;
let admin: AccountApi;
let inboxId: number;
let agentId: number;

describe.skipIf(!haveChromium)("notifications in chromium", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      server = s;
      admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
      inboxId = (await admin.post("/inboxes", { name: "Support API", channel: { type: "api" } })).id;
      agentId = await addAgent(s, "Nia Agent", AGENT.email, AGENT.password);
      await admin.post("/inbox_members", { inbox_id: inboxId, user_ids: [agentId] });
    },
  });

  test("assigned and mentioned while the page is open: bell, title, panel, open, mark all read", async () => {
    const page = await openPage();
    const subscriptions = recordSubscriptions(page);
    await signIn(page, AGENT.email, AGENT.password);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    const bell = page.getByRole("button", { name: /^Notifications, \d+ unread$/ });
    await page.getByRole("button", { name: "Notifications, 0 unread" }).waitFor();
    // The panel lists what arrives over the socket: a notification made before it listens is not in it.
    await subscribed(subscriptions, 1);

    const c = await seedConversation(
      admin,
      inboxId,
      { name: "Ivy Customer", email: "ivy@example.com" },
      "Can someone help?",
    );
    await admin.post(`/conversations/${c.id}/assignments`, { assignee_id: agentId });
    await admin.post(`/conversations/${c.id}/messages`, {
      content: `[@Nia Agent](mention://user/${agentId}/Nia%20Agent) can you take this?`,
      private: true,
    });
    // conversation_creation (a member of the inbox), the assignment, the mention.
    await page.getByRole("button", { name: "Notifications, 3 unread" }).waitFor();
    await until(async () => (await page.title()) === "(3) Conversations · Parley");

    await bell.click();
    const list = page.getByRole("list", { name: "Notifications" });
    expect(await list.getByRole("button").allInnerTexts()).toEqual([
      `[#${c.id}] @Nia Agent can you take this?\nUnread · now`,
      `Conversation #${c.id} was assigned to you\nUnread · now`,
      `New conversation #${c.id} in Support API\nUnread · now`,
    ]);
    await shot(page, "62-notifications");
    await list.getByRole("button", { name: /was assigned to you/ }).click();
    await page.getByRole("heading", { name: "Ivy Customer", level: 2 }).waitFor();
    await page.getByRole("button", { name: "Notifications, 2 unread" }).waitFor();

    await bell.click();
    await page.getByRole("button", { name: "Mark all read" }).click();
    await page.getByRole("button", { name: "Notifications, 0 unread" }).waitFor();
    await until(async () => (await page.title()) === "Ivy Customer · Conversations · Parley");
    const r = await fetch(`${server.base}/api/v1/accounts/${server.first.account_id}/notifications/unread_count`, {
      headers: { api_access_token: server.first.api_access_token },
    });
    expect(await r.json()).toBe(0); // the administrator has none: they caused them all
  }, 60_000);

  test("an agent chooses their notifications by email and push from the profile menu; a reload keeps them", async () => {
    const page = await openPage();
    await signIn(page, AGENT.email, AGENT.password);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.getByRole("button", { name: /profile menu/ }).click();
    await page.getByRole("link", { name: "Notification settings" }).click();
    const form = page.getByRole("form", { name: "Notifications" });
    await form.waitFor();
    // An agent sees the two sections every member may open, and no others.
    expect(await page.getByRole("navigation", { name: "Settings" }).getByRole("link").allTextContents()).toEqual([
      "Macros",
      "Notifications",
    ]);
    const byEmail = form.getByRole("group", { name: "By email" });
    const creation = byEmail.getByLabel("A new conversation in one of my inboxes");
    expect(await creation.isChecked()).toBe(true); // the defaults: all four
    await creation.uncheck();
    await form
      .getByRole("group", { name: "Push notifications (mobile app)" })
      .getByLabel("Someone mentions me in a private note")
      .uncheck();
    await form.getByRole("button", { name: "Save changes" }).click();
    await form.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await shot(page, "63-notification-settings");
    await page.reload();
    await form.waitFor();
    expect(
      await form
        .getByRole("group", { name: "By email" })
        .getByLabel("A new conversation in one of my inboxes")
        .isChecked(),
    ).toBe(false);
    const saved = await server.deps.services.notifications.settings({
      account: { id: server.first.account_id },
      user: { id: agentId },
    } as never);
    expect(saved.selected_email_flags).toEqual([
      "email_conversation_assignment",
      "email_conversation_mention",
      "email_assigned_conversation_new_message",
    ]);
    expect(saved.selected_push_flags).not.toContain("push_conversation_mention");
  }, 60_000);
});

// Mentions in a private note, with the keyboard only: "@" lists the agents, ↑/↓ and Enter take one,
// the note goes out with Chatwoot's mention link, reads as @Name in the thread, and the mentioned
// agent is notified. In a reply to the customer "@" is just a character.
import { describe, expect, test } from "bun:test";
import { addAgent, browserSuite, haveChromium, shot, until, type WebServer } from "./browser.ts";
import { accountApi, seedConversation, type AccountApi } from "./seed.ts";

if (!haveChromium)
  console.warn("test/e2e/mentions.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

let server: WebServer;
let admin: AccountApi;
let inboxId: number;
let nia: number;

describe.skipIf(!haveChromium)("mentions in chromium", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      server = s;
      admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
      inboxId = (await admin.post("/inboxes", { name: "Support API", channel: { type: "api" } })).id;
      nia = await addAgent(s, "Nia Agent", "nia@example.com", "agent password 8");
      await addAgent(s, "Nico Other", "nico@example.com", "agent password 9");
      await admin.post("/inbox_members", { inbox_id: inboxId, user_ids: [nia] });
    },
  });

  test("@ in a note picks an agent with the keyboard; the note mentions them and they are notified", async () => {
    const c = await seedConversation(admin, inboxId, { name: "Uma Customer" }, "Refund please");
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/conversations/${c.id}`);
    await page.getByRole("button", { name: "Private note" }).click();
    const box = page.getByLabel("Private note (only your team sees it)");
    await box.pressSequentially("@ni");
    const list = page.getByRole("listbox");
    expect(await list.getByRole("option").allInnerTexts()).toEqual([
      "Nia Agent (nia@example.com)",
      "Nico Other (nico@example.com)",
    ]);
    await shot(page, "63-mention-picker");
    const selected = () => list.locator('[aria-selected="true"]').innerText();
    await page.keyboard.press("ArrowDown");
    expect(await selected()).toBe("Nico Other (nico@example.com)");
    await page.keyboard.press("ArrowDown"); // wraps around
    expect(await selected()).toBe("Nia Agent (nia@example.com)");
    await page.keyboard.press("Enter");
    expect(await box.inputValue()).toBe("@Nia Agent ");
    await box.pressSequentially("can you take this?");
    await page.keyboard.press("Enter");

    await page.locator(".message.note").getByText("@Nia Agent can you take this?").waitFor();
    const messages = (await admin.get(`/conversations/${c.id}/messages`)).payload;
    expect(messages.at(-1).content).toBe(`[@Nia Agent](mention://user/${nia}/Nia%20Agent) can you take this?`);
    await until(() => {
      const row = server.deps.db
        .query(
          "SELECT notification_type FROM notifications WHERE user_id = ? AND notification_type = 'conversation_mention'",
        )
        .get(nia);
      return row !== null;
    });

    await page.getByRole("button", { name: "Reply", exact: true }).click();
    await page.getByLabel("Reply to Uma Customer").pressSequentially("@ni");
    expect(await page.getByRole("listbox").count()).toBe(0);
  }, 60_000);
});

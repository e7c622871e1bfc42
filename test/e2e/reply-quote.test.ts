// A reply that quotes a message (content_attributes.in_reply_to, as a WhatsApp bridge or the website
// chat sends it) shows the start of the quoted message above its own text, and says so to a screen
// reader; a reply whose quoted message is not in the thread shows no quote.
import { describe, expect, test } from "bun:test";
import { browserSuite, haveChromium, type WebServer } from "./browser.ts";
import { accountApi, seedConversation } from "./seed.ts";

if (!haveChromium)
  console.warn("test/e2e/reply-quote.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

let server: WebServer;

describe.skipIf(!haveChromium)("quoted replies in chromium", () => {
  const { openPage, signIn } = browserSuite({ setup: async (s) => void (server = s) });

  test("the quoted message's start sits above the reply; an unknown quote shows nothing", async () => {
    const admin = accountApi(server.base, server.first.account_id, server.first.api_access_token);
    const inbox = (await admin.post("/inboxes", { name: "WhatsApp", channel: { type: "api" } })).id;
    const c = await seedConversation(admin, inbox, { name: "Quinn Quote" }, "Where is order 42?");
    const messages = await admin.get(`/conversations/${c.id}/messages`);
    const question = messages.payload.find((m: any) => m.content === "Where is order 42?");
    const reply = await admin.post(`/conversations/${c.id}/messages`, {
      content: "It ships today",
      content_attributes: { in_reply_to: question.id },
    });
    const loose = await admin.post(`/conversations/${c.id}/messages`, {
      content: "No quote here",
      content_attributes: { in_reply_to: 99999999 },
    });

    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/conversations/${c.id}`);
    const quoted = page.locator(`[data-message-id="${reply.id}"] .reply-quote`);
    await quoted.waitFor();
    expect(await quoted.textContent()).toBe("In reply to: Where is order 42?");
    expect(await quoted.getAttribute("data-quotes")).toBe(String(question.id));
    expect(await page.locator(`[data-message-id="${reply.id}"] .message-text`).innerText()).toBe("It ships today");
    await page.locator(`[data-message-id="${loose.id}"] .message-text`).waitFor();
    expect(await page.locator(`[data-message-id="${loose.id}"] .reply-quote`).count()).toBe(0);
  }, 60_000);
});

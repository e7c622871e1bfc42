// Live updates over /cable in a real browser: what other people do (a customer's message, a
// delivery failure, another agent resolving) shows without a reload, and after the server drops
// the socket the page reconnects with `since` and is replayed what it missed.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { Connection } from "../../src/realtime/hub.ts";
import { addAgent, browserSuite, haveChromium, type WebServer } from "./browser.ts";
import { accountApi, seedConversation, type AccountApi } from "./seed.ts";
import { recordSubscriptions, subscribed } from "./subscriptions.ts";

if (!haveChromium)
  console.warn("test/e2e/live.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

const AGENT = { email: "lee@example.com", password: "agent password 3" };

let server: WebServer;
let admin: AccountApi;
let inboxId: number;

const row = (page: Page, id: number) => page.locator(`[data-conversation-id="${id}"]`);
const lastEventId = (kind: string) =>
  (server.deps.db.query("SELECT MAX(id) AS id FROM events WHERE kind = ?").get(kind) as { id: number }).id;

async function openConversation(
  page: Page,
  signIn: (p: Page, e?: string, pw?: string) => Promise<void>,
  id: number,
  contact: string,
) {
  await signIn(page, AGENT.email, AGENT.password);
  await page.getByRole("button", { name: /^All/ }).click();
  await row(page, id).click();
  await page.getByRole("heading", { name: contact, level: 2 }).waitFor();
}

describe.skipIf(!haveChromium)("live updates over the socket", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      server = s;
      admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
      inboxId = (await admin.post("/inboxes", { name: "Live API", channel: { type: "api" } })).id;
      await addAgent(s, "Lee Admin", AGENT.email, AGENT.password, "administrator");
    },
  });

  test("a new message, a failed delivery and another agent resolving show in the open conversation", async () => {
    const c = await seedConversation(admin, inboxId, { name: "Mo Live" }, "First question");
    const page = await openPage();
    const subscriptions = recordSubscriptions(page);
    await openConversation(page, signIn, c.id, "Mo Live");
    await subscribed(subscriptions, 1);
    expect(subscriptions.since).toEqual([null]);

    await admin.post(`/conversations/${c.id}/messages`, { content: "Are you there?", message_type: "incoming" });
    await page.locator(".message.incoming").getByText("Are you there?").waitFor();
    await row(page, c.id).getByText("Are you there?").waitFor();

    const reply = await admin.post(`/conversations/${c.id}/messages`, {
      content: "Yes, looking now.",
      message_type: "outgoing",
    });
    await page.locator(".message.outgoing").getByText("Yes, looking now.").waitFor();
    await admin.patch(`/conversations/${c.id}/messages/${reply.id}`, { status: "failed", external_error: "SMTP 550" });
    await page.locator(`[data-message-id="${reply.id}"]`).getByText("Not delivered: SMTP 550").waitFor();

    await admin.post(`/conversations/${c.id}/toggle_status`, { status: "resolved" });
    await page.getByRole("button", { name: "Reopen" }).waitFor();
    await page
      .locator(".message.activity")
      .getByText(/marked resolved/)
      .waitFor();
    // Open conversations only: the resolved one leaves the list.
    await row(page, c.id).waitFor({ state: "detached" });
    // Still the one socket: nothing was missed, so nothing was asked again.
    expect(subscriptions).toEqual({ since: [null], confirmed: 1 });
  }, 60_000);

  test("after the server drops the socket, the page reconnects with since and is replayed what it missed", async () => {
    const c = await seedConversation(admin, inboxId, { name: "Noor Replay" }, "Hello");
    const page = await openPage();
    const subscriptions = recordSubscriptions(page);
    await openConversation(page, signIn, c.id, "Noor Replay");
    await subscribed(subscriptions, 1);
    await admin.post(`/conversations/${c.id}/messages`, { content: "Before the drop", message_type: "incoming" });
    await page.locator(".message.incoming").getByText("Before the drop").waitFor();
    const seen = lastEventId("message_created");

    // The server drops every socket and, for a while, refuses new ones.
    const hub = server.deps.realtime;
    const open = hub.open;
    hub.open = (socket): Connection | null => (socket.close(1013, "test: not now"), null);
    try {
      hub.shutdown();
      await page.getByText("Live updates paused: reconnecting to Parley…").waitFor();
      await admin.post(`/conversations/${c.id}/messages`, { content: "While you were away", message_type: "incoming" });
    } finally {
      hub.open = open;
    }
    const missed = lastEventId("message_created");

    // Only a replay brings it into the thread: nothing polls while the backoff lasts (≤ 30 s).
    await page.locator(".message.incoming").getByText("While you were away").waitFor();
    await page.getByText("Live updates paused: reconnecting to Parley…").waitFor({ state: "detached" });
    await subscribed(subscriptions, 2);
    expect(subscriptions.since).toHaveLength(2);
    expect(subscriptions.since[0]).toBe(null);
    const since = subscriptions.since[1]!;
    expect(since).toBeGreaterThanOrEqual(seen);
    expect(since).toBeLessThan(missed);
    expect(await page.locator(".message.incoming").allInnerTexts()).toHaveLength(3);
  }, 60_000);
});

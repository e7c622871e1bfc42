// Macros in the browser: the administrator makes a global macro (a private note, then resolve) in
// Settings; an agent runs it from the conversation screen's Macros menu and sees the note and the
// resolved status at once; the agent's own macros are personal (no visibility choice, no Edit on
// the administrator's); a macro naming a label that does not exist shows the server's 422 on its row.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { addAgent, browserSuite, haveChromium, shot, type WebServer } from "./browser.ts";
import { accountApi, seedConversation, type Seeded } from "./seed.ts";

if (!haveChromium)
  console.warn("test/e2e/macros.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

const AGENT = { name: "Ana Agent", email: "ana@example.com", password: "ana-agent-password-1" };
const NOTE = "Closing: solved by phone";

let server: WebServer;
let seeded: Seeded;

const settingsPath = () => `${server.base}/app/accounts/${server.first.account_id}/settings/macros`;
const conversationPath = () => `${server.base}/app/accounts/${server.first.account_id}/conversations/${seeded.id}`;
const rows = (page: Page) => page.getByRole("table", { name: "Macros" }).locator("tbody tr");

describe.skipIf(!haveChromium)("macros", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      server = s;
      const admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
      const inbox = await admin.post("/inboxes", { name: "Support", channel: { type: "api" } });
      seeded = await seedConversation(admin, inbox.id, { name: "Dana Cliente" }, "Where is order 1001?");
      const agentId = await addAgent(s, AGENT.name, AGENT.email, AGENT.password);
      await admin.post("/inbox_members", { inbox_id: inbox.id, user_ids: [agentId] });
    },
  });

  test("the administrator creates a global macro in Settings", async () => {
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(settingsPath());
    await page.getByText("No macros yet.").waitFor();

    await page.getByLabel("Name").fill("Close politely");
    await page.getByLabel("Visibility").selectOption("global");
    expect(await page.locator("#action-0-name").inputValue()).toBe("add_private_note");
    // Only a macro's actions are offered: nothing that only automation does.
    const offered = await page
      .locator("#action-0-name option")
      .evaluateAll((os) => os.map((o) => o.getAttribute("value")));
    expect(offered).toContain("resolve_conversation");
    expect(offered).not.toContain("send_webhook_event");
    await page.locator("#action-0-text").fill(NOTE);
    await page.getByRole("button", { name: "Add an action" }).click();
    await page.locator("#action-1-name").selectOption("resolve_conversation");
    await page.getByRole("button", { name: "Create macro" }).click();
    await page.getByRole("status").getByText("Close politely created.").waitFor();
    // The list is read again after the announcement: wait for its row before reading the cells.
    await rows(page).first().getByText("Close politely").waitFor();
    const cells = await rows(page).first().locator("td").allInnerTexts();
    expect(cells.slice(0, 4)).toEqual(["Close politely", "Global", expect.any(String), "2"]);
    expect(cells[2]).not.toBe("");
    await shot(page, "macros-settings");
  }, 60_000);

  test("an agent runs it from the conversation: the note shows and the conversation is resolved", async () => {
    const page = await openPage();
    await signIn(page, AGENT.email, AGENT.password);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(conversationPath());
    await page.getByRole("heading", { name: "Dana Cliente", level: 2 }).waitFor();
    expect(await page.locator(".thread-sub .status-text").innerText()).toBe("Open");

    await page.getByRole("button", { name: "Run a macro" }).click();
    await page.locator("#macro-menu").getByRole("button", { name: "Close politely" }).click();
    const ask = page.getByRole("group", { name: "Run Close politely on this conversation?" });
    const executed = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith("/execute"));
    await ask.getByRole("button", { name: "Run" }).click();
    expect((await executed).status()).toBe(200);
    await page.getByText(NOTE).waitFor();
    await page.locator(".thread-sub .status-text").getByText("Resolved", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Reopen" }).first().waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);
    await shot(page, "macros-run");
  }, 60_000);

  test("an agent's macro is personal; a label that does not exist is refused on its row", async () => {
    const page = await openPage();
    await signIn(page, AGENT.email, AGENT.password);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    // The agent has no Settings link: the Macros menu leads to the one section open to them.
    await page.goto(conversationPath());
    await page.getByRole("heading", { name: "Dana Cliente", level: 2 }).waitFor();
    await page.getByRole("button", { name: "Run a macro" }).click();
    await page.getByRole("link", { name: "Manage macros" }).click();
    await page.getByRole("heading", { name: "Add a macro" }).waitFor();
    const tabs = page.getByRole("navigation", { name: "Settings" }).getByRole("link");
    expect(await tabs.allInnerTexts()).toEqual(["Macros", "Notifications"]); // the sections every member may open
    expect(await page.getByLabel("Visibility").count()).toBe(0);
    await page.getByText("Your macros are personal: only administrators make global ones.").waitFor();
    // The administrator's global macro is listed, but is not the agent's to change.
    await rows(page).first().getByText("Close politely").waitFor();
    expect(await page.getByRole("button", { name: "Edit Close politely" }).count()).toBe(0);

    await page.getByLabel("Name").fill("Tag and note");
    await page.locator("#action-0-name").selectOption("add_label");
    await page.locator("#action-0-text").fill("no-such-label");
    await page.getByRole("button", { name: "Create macro" }).click();
    await page
      .locator("#action-0-errors")
      .getByText(/no label no-such-label in this account/)
      .waitFor();

    await page.locator("#action-0-name").selectOption("add_private_note");
    await page.locator("#action-0-text").fill("Following up tomorrow");
    await page.getByRole("button", { name: "Create macro" }).click();
    await page.getByRole("status").getByText("Tag and note created.").waitFor();
    expect(await page.locator("#action-0-errors").count()).toBe(0);
    const mine = rows(page).filter({ hasText: "Tag and note" });
    expect((await mine.locator("td").allInnerTexts()).slice(0, 4)).toEqual([
      "Tag and note",
      "Personal",
      AGENT.name,
      "1",
    ]);
    await page.getByRole("button", { name: "Edit Tag and note" }).waitFor();

    // Other sections stay closed to agents.
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/settings/general`);
    await page.getByRole("heading", { name: "Not allowed" }).waitFor();
  }, 60_000);
});

// Administrators' settings in a real browser: an API inbox and its identifier, members, agents, teams, and
// every settings page at phone width. Screenshots of each page.
import { describe, expect, test } from "bun:test";
import { focusedId, haveChromium, shot, type WebServer } from "./browser.ts";
import type { AccountApi } from "./seed.ts";
import { settingsAddress, settingsSuite } from "./settings-fixtures.ts";

if (!haveChromium)
  console.warn(
    "test/e2e/settings-inboxes-agents.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)",
  );

let server: WebServer;
let agentId: number;
let admin: AccountApi;

const settings = (section: string) => settingsAddress(server, section);

describe.skipIf(!haveChromium)("settings in chromium", () => {
  const { openPage, signIn } = settingsSuite((world) => {
    ({ server, admin, agentId } = world);
  });

  test("the administrator creates an API inbox, sees its identifier and secret, and adds a member", async () => {
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Inboxes" }).click();
    await page.getByText("No inboxes yet.").waitFor();

    await page.getByRole("button", { name: "Create inbox" }).click();
    await page.getByText("Name can't be blank").waitFor();
    expect(await page.getByLabel("Inbox name").getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Inbox name").fill("Shop API");
    await page.getByLabel("Webhook URL (optional)").fill("not a url");
    await page.getByRole("button", { name: "Create inbox" }).click();
    await page.locator("#inbox-channel\\.webhook_url-error").waitFor();
    await focusedId(page, "inbox-channel.webhook_url");
    await page.getByLabel("Webhook URL (optional)").fill("https://shop.example.com/parley");
    await shot(page, "30-settings-inboxes");
    await page.getByRole("button", { name: "Create inbox" }).click();

    await page.getByRole("heading", { name: "Shop API", level: 2 }).waitFor();
    const row = server.deps.db
      .query("SELECT id, identifier, webhook_secret FROM inboxes WHERE name = 'Shop API'")
      .get() as { id: number; identifier: string; webhook_secret: string };
    expect(page.url()).toBe(settings(`inboxes/${row.id}`));
    expect(await page.locator("code.identifier").innerText()).toBe(row.identifier);
    expect(await page.getByText("https://shop.example.com/parley").count()).toBe(1);
    expect(await page.getByText(row.webhook_secret).count()).toBe(0);
    await page.getByRole("button", { name: "Show webhook secret" }).click();
    await page.getByText(row.webhook_secret).waitFor();

    await page.getByRole("checkbox", { name: /Eve Agent/ }).check();
    await page.getByRole("button", { name: "Save members" }).click();
    await page.getByRole("status").getByText("Members saved.").waitFor();
    expect(server.deps.db.query("SELECT user_id FROM inbox_members WHERE inbox_id = ?").all(row.id)).toEqual([
      { user_id: agentId },
    ]);
    await shot(page, "31-settings-inbox");
  }, 60_000);

  test("agents: add one, change a role, remove one", async () => {
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(settings("agents"));
    await page.getByRole("cell", { name: "Eve Agent", exact: true }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Finn New");
    await page.getByLabel("Email", { exact: true }).fill("eve@example.com");
    await page.getByRole("button", { name: "Add agent" }).click();
    await page.getByText("Email has already been taken").waitFor();
    await page.getByLabel("Email", { exact: true }).fill("finn@example.com");
    await page.getByRole("button", { name: "Add agent" }).click();
    await page.getByRole("status").getByText("Finn New was added.").waitFor();
    // No password chosen yet: the list says so, and the agent's page offers the invitation again,
    // which this server (no PARLEY_SMTP_URL) refuses in words.
    await page.getByRole("cell", { name: "Finn New Invitation pending" }).waitFor();
    await page.getByRole("link", { name: "Finn New" }).click();
    await page.getByRole("button", { name: "Mail the invitation again" }).click();
    await page.getByRole("alert").filter({ hasText: "This server cannot send mail" }).waitFor();
    await page.goto(settings("agents"));

    await page.getByLabel("Role of Finn New").selectOption("administrator");
    await page.getByRole("status").getByText("Finn New is now an administrator.").waitFor();
    await shot(page, "32-settings-agents");
    await page.getByRole("button", { name: "Remove Finn New" }).click();
    await page
      .getByRole("group", { name: "Remove Finn New from the account?" })
      .getByRole("button", { name: "Remove" })
      .click();
    await page.getByRole("status").getByText("Finn New was removed from the account.").waitFor();
    expect(await page.getByRole("cell", { name: /^Finn New/ }).count()).toBe(0);
  }, 60_000);

  test("teams: create one and choose its members", async () => {
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(settings("teams"));
    await page.getByLabel("Name", { exact: true }).fill("Billing");
    await page.getByRole("button", { name: "Create team" }).click();
    await page.getByRole("heading", { name: "billing", level: 2 }).waitFor();
    await page.getByRole("checkbox", { name: /Eve Agent/ }).check();
    await page.getByRole("button", { name: "Save members" }).click();
    await page.getByRole("status").getByText("Members saved.").waitFor();
    const team = server.deps.db.query("SELECT id FROM teams WHERE name = 'billing'").get() as { id: number };
    const members = server.deps.db.query("SELECT user_id FROM team_members WHERE team_id = ?").all(team.id);
    expect(members).toEqual([{ user_id: agentId }]);
    await shot(page, "33-settings-team");
  }, 60_000);

  test("at 360 px every settings page fits the screen", async () => {
    const page = await openPage(360, 740);
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    const inbox = await admin.post("/inboxes", {
      name: "A phone-width inbox with a long name",
      channel: { type: "api", webhook_url: "https://example.com/a/rather/long/callback/path" },
    });
    for (const section of [
      "general",
      "inboxes",
      `inboxes/${inbox.id}`,
      "agents",
      "teams",
      "labels",
      "automation",
      "webhooks",
      "reports",
    ]) {
      await page.goto(settings(section));
      await page.getByRole("heading", { name: /^Settings: / }).waitFor();
      await page.locator("main .settings-card, main .settings-form").first().waitFor();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect({ section, width }).toEqual({ section, width: 360 });
      if (section === "agents") await shot(page, "40-phone-settings-agents");
    }
  }, 60_000);
});

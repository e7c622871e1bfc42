// Settings screens opened straight from their address (a reload, a bookmark) with no other screen
// visited first: every menu that lists the account's teams, agents or inboxes is filled, and an
// existing rule shows the team it assigns (it once showed "No team", and saving would have cleared it).
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { addAgent, browserSuite, haveChromium, type WebServer } from "./browser.ts";
import { accountApi, type AccountApi } from "./seed.ts";

if (!haveChromium)
  console.warn(
    "test/e2e/settings-by-url.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)",
  );

let server: WebServer;
let admin: AccountApi;
let agentId: number;
let teamId: number;
let inboxId: number;

const settings = (section: string, id?: number) =>
  `${server.base}/app/accounts/${server.first.account_id}/settings/${section}${id === undefined ? "" : `/${id}`}`;

/** The visible texts of a select's options, once the select holds more than its "none" choice. */
async function optionTexts(page: Page, select: ReturnType<Page["locator"]>): Promise<string[]> {
  await page.waitForFunction((el) => (el as HTMLSelectElement).options.length > 1, await select.elementHandle());
  return select.locator("option").allTextContents();
}

describe.skipIf(!haveChromium)("settings opened by URL", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      server = s;
      admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
      agentId = await addAgent(s, "Ines Agent", "ines@example.com", "agent password 7");
      teamId = (await admin.post("/teams", { name: "billing" })).id;
      inboxId = (await admin.post("/inboxes", { name: "Shop API", channel: { type: "api" } })).id;
    },
  });

  /** Signs in, then loads the settings address in a new page load: nothing stays in memory from before. */
  async function openDirectly(section: string, id?: number): Promise<Page> {
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(settings(section, id));
    return page;
  }

  test("automation: a new rule's team and agent menus list the account's teams and agents", async () => {
    const page = await openDirectly("automation");
    const action = page.getByRole("group", { name: "Action 1" });
    await action.getByLabel("Action", { exact: true }).selectOption("assign_team");
    expect(await optionTexts(page, action.getByLabel("Assign team: choice"))).toEqual(["No team", "billing"]);
    await action.getByLabel("Action", { exact: true }).selectOption("assign_agent");
    expect(await optionTexts(page, action.getByLabel("Assign agent: choice"))).toContain("Ines Agent");
  }, 60_000);

  test("automation: an existing rule shows the team it assigns, and saving keeps it", async () => {
    const rule = await admin.post("/automation_rules", {
      name: "Billing to billing",
      event_name: "conversation_created",
      conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }],
      actions: [
        { action_name: "assign_team", action_params: [teamId] },
        { action_name: "assign_agent", action_params: [agentId] },
      ],
    });
    const page = await openDirectly("automation", rule.id);
    await page.getByRole("heading", { name: "Edit the rule Billing to billing" }).waitFor();
    const team = page.getByRole("group", { name: "Action 1" }).getByLabel("Assign team: choice");
    await optionTexts(page, team);
    expect(await team.inputValue()).toBe(String(teamId));
    expect(await page.getByRole("group", { name: "Action 2" }).getByLabel("Assign agent: choice").inputValue()).toBe(
      String(agentId),
    );
    await page.getByRole("button", { name: "Save rule" }).click();
    await page.getByRole("status").getByText("Billing to billing saved.").waitFor();
    const saved = (await admin.get(`/automation_rules/${rule.id}`)).payload;
    expect(saved.actions).toEqual([
      { action_name: "assign_team", action_params: [teamId] },
      { action_name: "assign_agent", action_params: [agentId] },
    ]);
  }, 60_000);

  test("webhooks: the new webhook's inbox menu lists the account's inboxes", async () => {
    const page = await openDirectly("webhooks");
    const inbox = page.getByLabel("Inbox", { exact: true });
    expect(await optionTexts(page, inbox)).toEqual(["Every inbox", "Shop API"]);
    expect(await inbox.locator("option").nth(1).getAttribute("value")).toBe(String(inboxId));
  }, 60_000);
});

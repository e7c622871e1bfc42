// Administrators change what they created, against the real API: an inbox, a team, a label, an
// agent, an automation rule (edited in the create form, and cloned). Each refusal shows under the
// field the server named; each saved change is what the API then answers.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { addAgent, browserSuite, focusedId, haveChromium, shot, type WebServer } from "./browser.ts";
import { accountApi, type AccountApi } from "./seed.ts";

if (!haveChromium)
  console.warn("test/e2e/settings-edit.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

let server: WebServer;
let admin: AccountApi;
let agentId: number;

const settings = (section: string, id?: number) =>
  `${server.base}/app/accounts/${server.first.account_id}/settings/${section}${id === undefined ? "" : `/${id}`}`;
const status = (page: Page, text: string) => page.getByRole("status").getByText(text).waitFor();

describe.skipIf(!haveChromium)("editing in settings", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      server = s;
      admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
      agentId = await addAgent(s, "Gil Agent", "gil@example.com", "agent password 4");
    },
  });

  async function open(section: string, id?: number): Promise<Page> {
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(settings(section, id));
    return page;
  }

  test("inbox: name, webhook URL, greeting and survey", async () => {
    const inbox = await admin.post("/inboxes", { name: "Shop API", channel: { type: "api" } });
    const page = await open("inboxes", inbox.id);
    const form = page.locator("form", { has: page.getByRole("heading", { name: "Settings" }) });
    await form.getByLabel("Inbox name").fill(" ");
    await form.getByLabel("Webhook URL (optional)").fill("ftp://example.com/x");
    await form.getByRole("button", { name: "Save inbox" }).click();
    await form.getByText("Name can't be blank").waitFor();
    await form.getByText("Webhook URL must be an http or https URL").waitFor();
    await focusedId(page, "edit-inbox-name");
    expect((await admin.get(`/inboxes/${inbox.id}`)).name).toBe("Shop API");

    await form.getByLabel("Inbox name").fill("Shop API (EU)");
    await form.getByLabel("Webhook URL (optional)").fill("https://example.com/parley");
    await form.getByLabel("Greet customers who start a conversation").check();
    await form.getByLabel("Greeting message").fill("Hi! We answer within the hour.");
    await form.getByLabel("Ask for a satisfaction rating when a conversation is resolved").check();
    await form.getByRole("button", { name: "Save inbox" }).click();
    await status(page, "Inbox Shop API (EU) saved.");
    await page.getByRole("heading", { name: "Shop API (EU)", level: 2 }).waitFor();
    const saved = await admin.get(`/inboxes/${inbox.id}`);
    expect([
      saved.name,
      saved.webhook_url,
      saved.greeting_enabled,
      saved.greeting_message,
      saved.csat_survey_enabled,
    ]).toEqual(["Shop API (EU)", "https://example.com/parley", true, "Hi! We answer within the hour.", true]);
    await shot(page, "40-settings-inbox-edit");
  }, 60_000);

  test("team: a taken name is refused; name, description and auto-assignment saved", async () => {
    await admin.post("/teams", { name: "billing" });
    const team = await admin.post("/teams", { name: "sales", description: "New business" });
    const page = await open("teams", team.id);
    await page.getByLabel("Name", { exact: true }).fill("Billing");
    await page.getByRole("button", { name: "Save team" }).click();
    await page.getByText("Name has already been taken").waitFor();
    await focusedId(page, "edit-team-name");

    await page.getByLabel("Name", { exact: true }).fill("Sales EMEA");
    await page.getByLabel("Description (optional)").fill("Europe and Africa");
    await page.getByLabel("Assign the team's conversations to its members automatically").uncheck();
    await page.getByRole("button", { name: "Save team" }).click();
    await status(page, "Team sales emea saved.");
    const saved = await admin.get(`/teams/${team.id}`);
    expect([saved.name, saved.description, saved.allow_auto_assign]).toEqual([
      "sales emea",
      "Europe and Africa",
      false,
    ]);
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("sales emea");
  }, 60_000);

  test("label: renamed from the list's link, with colour and sidebar", async () => {
    const label = await admin.post("/labels", { title: "urgent", color: "#ff0000" });
    const page = await open("labels");
    await page.getByRole("link", { name: "urgent" }).click();
    await page.getByRole("heading", { name: "Edit the label urgent" }).waitFor();
    await page.getByLabel("Title").fill("very urgent!");
    await page.getByRole("button", { name: "Save label" }).click();
    await page.getByText(/^Title /).waitFor();
    await focusedId(page, "label-title");

    await page.getByLabel("Title").fill("Top-Priority");
    await page.getByLabel("Description (optional)").fill("Answer first");
    await page.getByLabel("Show in the sidebar").check();
    await page.getByRole("button", { name: "Save label" }).click();
    await status(page, "Label top-priority saved.");
    expect(await admin.get(`/labels/${label.id}`)).toEqual({
      id: label.id,
      title: "top-priority",
      description: "Answer first",
      color: "#ff0000",
      show_on_sidebar: true,
    });
  }, 60_000);

  test("agent: name, role and availability", async () => {
    const page = await open("agents");
    await page.getByRole("link", { name: "Gil Agent" }).click();
    await page.getByRole("heading", { name: "Gil Agent", level: 2 }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill("");
    await page.getByRole("button", { name: "Save agent" }).click();
    await page.getByText("Name can't be blank").waitFor();
    await focusedId(page, "agent-edit-name");

    await page.getByLabel("Name", { exact: true }).fill("Gil Martins");
    await page.getByLabel("Role").selectOption("administrator");
    await page.getByLabel("Availability").selectOption("busy");
    await page.getByLabel("Show as offline when no Parley page of theirs is open").uncheck();
    await page.getByRole("button", { name: "Save agent" }).click();
    await status(page, "Gil Martins saved.");
    const gil = ((await admin.get("/agents")) as { id: number }[]).find((a) => a.id === agentId) as Record<
      string,
      unknown
    >;
    expect([gil.name, gil.role, gil.availability_status, gil.auto_offline]).toEqual([
      "Gil Martins",
      "administrator",
      "busy",
      false,
    ]);
    await shot(page, "41-settings-agent-edit");
  }, 60_000);

  test("automation: a rule edited in its form keeps what it had; clone makes a copy", async () => {
    const base = `/automation_rules`;
    for (const title of ["billing", "refund"]) await admin.post("/labels", { title });
    const rule = await admin.post(base, {
      name: "Tag refunds",
      event_name: "message_created",
      conditions: [
        { attribute_key: "content", filter_operator: "contains", values: ["refund"], query_operator: "or" },
        { attribute_key: "labels", filter_operator: "equal_to", values: ["vip", "gold"], query_operator: null },
      ],
      actions: [{ action_name: "add_label", action_params: ["billing", "refund"] }],
    });
    const page = await open("automation");
    await page.getByRole("link", { name: "Tag refunds" }).click();
    await page.getByRole("heading", { name: "Edit the rule Tag refunds" }).waitFor();
    const second = page.getByRole("group", { name: "Condition 2" });
    expect(await second.getByLabel("Value").inputValue()).toBe("vip, gold");
    await page.getByLabel("Name", { exact: true }).fill("");
    await page.getByRole("button", { name: "Save rule" }).click();
    await page.getByText("Name can't be blank").waitFor();
    await focusedId(page, "rule-name");

    await page.getByLabel("Name", { exact: true }).fill("Tag refund requests");
    await page.getByRole("group", { name: "Action 1" }).getByLabel("Add label: text").fill("billing");
    await page.getByRole("button", { name: "Save rule" }).click();
    await status(page, "Tag refund requests saved.");
    const saved = (await admin.get(`${base}/${rule.id}`)).payload;
    expect([saved.name, saved.active, saved.conditions, saved.actions]).toEqual([
      "Tag refund requests",
      true,
      [
        { attribute_key: "content", filter_operator: "contains", values: ["refund"], query_operator: "or" },
        { attribute_key: "labels", filter_operator: "equal_to", values: ["vip", "gold"], query_operator: null },
      ],
      [{ action_name: "add_label", action_params: ["billing"] }],
    ]);

    await page.getByRole("link", { name: "← All rules" }).click();
    await page.getByRole("button", { name: "Clone Tag refund requests" }).click();
    await status(page, "Tag refund requests cloned.");
    await page.getByRole("link", { name: "Tag refund requests" }).nth(1).waitFor();
    const all = (await admin.get(base)).payload as { name: string; conditions: unknown[] }[];
    expect(all.map((r) => r.name)).toEqual(["Tag refund requests", "Tag refund requests"]);
    expect(all[1]!.conditions).toEqual(saved.conditions);
    await shot(page, "42-settings-automation-list");
  }, 60_000);
});

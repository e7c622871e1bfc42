// Administrators' settings in a real browser: webhooks with their one-time secret and delivery log, labels and
// the reports over the summary APIs, automation rules. Screenshots of each page.
import { afterAll, describe, expect, test } from "bun:test";
import { startReceiver, type Receiver } from "../helpers/webhooks.ts";
import { focusedId, haveChromium, shot, until, type WebServer } from "./browser.ts";
import { seedConversation, type AccountApi } from "./seed.ts";
import { settingsAddress, settingsSuite } from "./settings-fixtures.ts";

if (!haveChromium)
  console.warn(
    "test/e2e/settings-webhooks-labels-automation.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)",
  );

let server: WebServer;
let admin: AccountApi;
let receiver: Receiver;

/** Delivers until `count` deliveries have been attempted in all (the server's scheduler is not running here). */
async function deliverAll(count: number): Promise<void> {
  await until(async () => {
    await server.deps.deliverer.drain(); // sends what is due and waits for the answers
    return (server.deps.db.query("SELECT COUNT(*) AS n FROM webhook_attempts").get() as { n: number }).n >= count;
  });
}

const settings = (section: string) => settingsAddress(server, section);

describe.skipIf(!haveChromium)("settings in chromium", () => {
  const { openPage, signIn } = settingsSuite((world) => {
    ({ server, admin } = world);
    receiver = startReceiver();
  });
  afterAll(async () => void (await receiver?.stop()));

  test("webhooks: create with chosen events, the secret once, the delivery log and redelivery", async () => {
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(settings("webhooks"));
    await page.getByText("No webhooks yet.").waitFor();
    await page.getByLabel("URL", { exact: true }).fill(receiver.url);
    for (const kind of [
      "conversation_status_changed",
      "conversation_updated",
      "message_updated",
      "contact_created",
      "contact_updated",
      "webwidget_triggered",
    ]) {
      await page.getByRole("checkbox", { name: kind, exact: true }).uncheck();
    }
    await page.getByRole("button", { name: "Create webhook" }).click();
    await page.getByRole("region", { name: "Webhook created" }).waitFor();
    const hook = server.deps.db.query("SELECT id, secret, subscriptions FROM webhooks").get() as {
      id: number;
      secret: string;
      subscriptions: string;
    };
    expect(JSON.parse(hook.subscriptions)).toEqual(["conversation_created", "message_created"]);
    expect(await page.getByRole("region", { name: "Webhook created" }).innerText()).toContain(hook.secret);
    await shot(page, "34-settings-webhooks");

    // Events for it: a conversation and its first message, sent by the delivery job to the receiver.
    const inboxId = (await admin.post("/inboxes", { name: "Hooks API", channel: { type: "api" } })).id;
    await seedConversation(admin, inboxId, { name: "Gus Customer" }, "Is anyone there?");
    await deliverAll(2);
    await page.getByRole("link", { name: "Open the webhook and its delivery log" }).click();
    const log = page.getByRole("table");
    await log.getByRole("row", { name: /message_created/ }).waitFor();
    expect(await log.getByRole("row").allInnerTexts()).toEqual([
      expect.stringContaining("Event"),
      expect.stringMatching(/^message_created\tDelivered \(200\)\t1 of \d+\t—/),
      expect.stringMatching(/^conversation_created\tDelivered \(200\)\t1 of \d+\t—/),
    ]);
    await shot(page, "35-settings-webhook-deliveries");

    // The receiver now fails: a redelivery is attempted again and its error shows in the log.
    receiver.behaviour = () => 500;
    await log.getByRole("button", { name: /^Redeliver message_created/ }).click();
    await page.getByRole("status").getByText("message_created will be sent again.").waitFor();
    await deliverAll(3);
    await page.getByRole("button", { name: "Refresh" }).click();
    await log.getByRole("row", { name: /message_created.*2 of/ }).waitFor();
    expect(await log.getByRole("row", { name: /message_created/ }).innerText()).toMatch(/HTTP 500/);

    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page.getByRole("button", { name: "Replace secret" }).click();
    await page.getByRole("region", { name: "New secret" }).waitFor();
    const rotated = (
      server.deps.db.query("SELECT secret FROM webhooks WHERE id = ?").get(hook.id) as { secret: string }
    ).secret;
    expect(rotated).not.toBe(hook.secret);
    expect(await page.getByRole("region", { name: "New secret" }).innerText()).toContain(rotated);

    await page.getByRole("button", { name: "Delete webhook" }).click();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByText("No webhooks yet.").waitFor();
  }, 60_000);

  test("labels and reports, over the real label and summary-report APIs", async () => {
    const page = await openPage();
    await admin.post("/labels", { title: "billing", description: "Money matters", color: "#1f93ff" });
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(settings("labels"));
    await page.getByRole("cell", { name: "billing", exact: true }).waitFor();
    await page.getByLabel("Title").fill("not valid!");
    await page.getByRole("button", { name: "Create label" }).click();
    await page
      .getByText(/^Title /)
      .first()
      .waitFor(); // the server's own words for the title rule
    await page.getByLabel("Title").fill("VIP");
    await page.getByRole("button", { name: "Create label" }).click();
    await page.getByRole("status").getByText("Label vip created.").waitFor();
    await page.getByRole("cell", { name: "vip", exact: true }).waitFor();
    const created = (await admin.get("/labels")).payload.find((l: { title: string }) => l.title === "vip");
    expect([created.title, created.description, created.show_on_sidebar]).toEqual(["vip", null, false]);
    await shot(page, "36-settings-labels");
    await page.getByRole("button", { name: "Delete billing" }).click();
    await page
      .getByRole("group", { name: "Delete the label billing?" })
      .getByRole("button", { name: "Delete" })
      .click();
    await page.getByRole("status").getByText("Label billing deleted.").waitFor();
    expect((await admin.get("/labels")).payload.map((l: { title: string }) => l.title)).toEqual(["vip"]);

    // Reports: the screen asks the summary endpoints and shows what they answer.
    const asked: string[] = [];
    page.on("request", (r) => {
      const u = new URL(r.url());
      if (u.pathname.includes("/summary_reports/"))
        asked.push(`${u.pathname.split("/").pop()}${u.searchParams.get("business_hours") ? "+bh" : ""}`);
    });
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Reports" }).click();
    await page.getByRole("button", { name: "Agents" }).click();
    const table = page.getByRole("table", { name: "Agents, last 7 days" });
    await table.waitFor();
    const rows = await table.getByRole("row").allInnerTexts();
    expect(rows[0]).toBe("Name\tConversations\tResolved\tFirst response\tResolution\tReply");
    expect(
      rows
        .slice(1)
        .map((r) => r.split("\t")[0])
        .sort(),
    ).toEqual(["Administrator", "Eve Agent"]);
    await page.getByLabel("Period", { exact: true }).selectOption("30");
    await page.getByRole("table", { name: "Agents, last 30 days" }).waitFor();
    await page.getByLabel("Business hours only").check();
    await page.getByRole("table", { name: "Agents, last 30 days, business hours" }).waitFor();
    expect(asked).toEqual(["team", "agent", "agent", "agent+bh"]);
    await shot(page, "37-settings-reports");
  }, 60_000);

  test("automation: a rule built from the catalogue, refused field by field, then created and switched off", async () => {
    const page = await openPage();
    const sent: unknown[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname.endsWith("/automation_rules")) sent.push(r.postDataJSON());
    });
    // The server checks that a rule's labels exist.
    const have = (await admin.get("/labels")).payload.map((l: { title: string }) => l.title);
    for (const title of ["billing", "vip"]) if (!have.includes(title)) await admin.post("/labels", { title });
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(settings("automation"));
    await page.getByText("No rules yet.").waitFor();
    await page.getByLabel("When").selectOption("message_created");
    const first = page.getByRole("group", { name: "Condition 1" });
    await first.getByLabel("Attribute").selectOption("content");
    await first.getByLabel("Operator").selectOption("contains");
    await first.getByLabel("Value").fill("refund");
    await page.getByRole("button", { name: "Add a condition" }).click();
    await first.getByLabel("Then").selectOption("or");
    const second = page.getByRole("group", { name: "Condition 2" });
    await second.getByLabel("Attribute").selectOption("labels");
    await second.getByLabel("Value").fill("vip");
    const action = page.getByRole("group", { name: "Action 1" });
    await action.getByLabel("Action", { exact: true }).selectOption("send_webhook_event");
    await action.getByLabel("Send webhook event: text").fill("not a url");
    await page.getByRole("button", { name: "Create rule" }).click();
    await page.getByText("Name can't be blank").waitFor();
    await action.getByText("Action params must be [url] with an http(s) URL").waitFor();
    await focusedId(page, "rule-name");
    await shot(page, "38-settings-automation-errors");

    await page.getByLabel("Name", { exact: true }).fill("Refunds to billing");
    await action.getByLabel("Action", { exact: true }).selectOption("add_label");
    await action.getByLabel("Add label: text").fill("billing");
    await page.getByRole("button", { name: "Create rule" }).click();
    await page.getByRole("status").getByText("Refunds to billing created.").waitFor();
    expect(sent.at(-1)).toEqual({
      name: "Refunds to billing",
      description: null,
      event_name: "message_created",
      active: true,
      conditions: [
        { attribute_key: "content", filter_operator: "contains", values: ["refund"], query_operator: "or" },
        { attribute_key: "labels", filter_operator: "equal_to", values: ["vip"], query_operator: null },
      ],
      actions: [{ action_name: "add_label", action_params: ["billing"] }],
    });
    await page.getByRole("checkbox", { name: "Refunds to billing is on" }).uncheck();
    await page.getByRole("status").getByText("Refunds to billing is off.").waitFor();
    expect(
      (await admin.get("/automation_rules")).payload.map((r: { name: string; active: boolean }) => [r.name, r.active]),
    ).toEqual([["Refunds to billing", false]]);
    await shot(page, "39-settings-automation");
  }, 60_000);
});

// The contact panel beside a conversation in a real browser: the contact's details and other conversations,
// an edit refused field by field and then saved, and custom attributes. Screenshots go to test/e2e/screenshots/.
import { describe, expect, test } from "bun:test";
import { browserSuite, focusedId, haveChromium, shot, type WebServer } from "./browser.ts";
import { supportInbox } from "./inbox-fixtures.ts";
import { seedConversation, type AccountApi } from "./seed.ts";

if (!haveChromium)
  console.warn(
    "test/e2e/inbox-contact-panel.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)",
  );

let server: WebServer;
let admin: AccountApi;
let inboxId: number;

describe.skipIf(!haveChromium)("the inbox in chromium", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      server = s;
      ({ admin, inboxId } = await supportInbox(s));
    },
  });

  test("the contact panel: details, other conversations, and an edit refused field by field, then saved", async () => {
    const older = await seedConversation(
      admin,
      inboxId,
      { name: "Jo Contact", email: "jo@example.com" },
      "An older question",
    );
    const c = await admin.post("/conversations", { inbox_id: inboxId, contact_id: older.contactId });
    await admin.post(`/conversations/${c.id}/messages`, { content: "A new question", message_type: "incoming" });

    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/conversations/${c.id}`);
    const panel = page.getByRole("complementary", { name: "Conversation details" });
    await panel.getByText("jo@example.com").waitFor();
    await panel.getByRole("link", { name: `#${older.id} · Support API` }).waitFor();

    await panel.getByRole("button", { name: "Edit contact" }).click();
    await focusedId(page, "contact-name");
    await panel.getByLabel("Email").fill("not-an-email");
    await panel.getByLabel("Phone number").fill("12345");
    await panel.getByRole("button", { name: "Save contact" }).click();
    await panel.locator("#contact-email-error").waitFor();
    expect(await panel.locator("#contact-email-error").innerText()).toStartWith("Email ");
    expect(await panel.locator("#contact-phone_number-error").innerText()).toBe(
      "Phone number should be in e164 format: a + and the country code, then the number (e.g. +14155550100)",
    );
    expect(await panel.getByLabel("Phone number").getAttribute("aria-invalid")).toBe("true");
    await focusedId(page, "contact-email");
    await shot(page, "24-contact-panel-errors");

    await panel.getByLabel("Name").fill("Jo Renamed");
    await panel.getByLabel("Email").fill("jo.renamed@example.com");
    await panel.getByLabel("Phone number").fill("+4915112345678");
    await panel.getByRole("button", { name: "Save contact" }).click();
    await panel.getByText("jo.renamed@example.com").waitFor();
    await page.getByRole("heading", { name: "Jo Renamed", level: 2 }).waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent === "Edit contact", null, { timeout: 5000 });
    const saved = (await admin.get(`/contacts/${older.contactId}`)).payload;
    expect([saved.name, saved.email, saved.phone_number]).toEqual([
      "Jo Renamed",
      "jo.renamed@example.com",
      "+4915112345678",
    ]);
    await shot(page, "25-contact-panel");

    await panel.getByRole("link", { name: `#${older.id} · Support API` }).click();
    await page.waitForURL(`${server.base}/app/accounts/${server.first.account_id}/conversations/${older.id}`);
    await page.locator(".message.incoming").getByText("An older question").waitFor();
  }, 60_000);

  test("contact custom attributes: shown in the panel, edited, added and removed", async () => {
    const c = await seedConversation(admin, inboxId, { name: "Vic Attributes" }, "Which plan am I on?");
    await admin.patch(`/contacts/${c.contactId}`, { custom_attributes: { plan: "gold", seats: 12 } });
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/conversations/${c.id}`);
    const panel = page.getByRole("complementary", { name: "Conversation details" });
    const attributes = panel.getByRole("definition").filter({ hasText: "gold" });
    await attributes.waitFor();
    expect(await panel.getByLabel("Custom attributes").innerText()).toBe("plan\ngold\nseats\n12");

    await panel.getByRole("button", { name: "Edit contact" }).click();
    await focusedId(page, "contact-name");
    await panel.getByRole("group", { name: "Attribute 1" }).getByLabel("Value").fill("platinum");
    await panel.getByRole("button", { name: "Remove attribute seats" }).click();
    await panel.getByRole("button", { name: "Add an attribute" }).click();
    const added = panel.getByRole("group", { name: "Attribute 2" });
    await added.getByLabel("Value").fill("EU");
    await panel.getByRole("button", { name: "Save contact" }).click();
    await added.getByText("Key can't be blank").waitFor();
    await focusedId(page, "custom-attribute-1-key");
    await shot(page, "26-contact-attributes");
    expect((await admin.get(`/contacts/${c.contactId}`)).payload.custom_attributes).toEqual({
      plan: "gold",
      seats: 12,
    });

    await added.getByLabel("Key").fill("region");
    await panel.getByRole("button", { name: "Save contact" }).click();
    await panel.getByRole("button", { name: "Edit contact" }).waitFor();
    expect(await panel.getByLabel("Custom attributes").innerText()).toBe("plan\nplatinum\nregion\nEU");
    expect((await admin.get(`/contacts/${c.contactId}`)).payload.custom_attributes).toEqual({
      plan: "platinum",
      region: "EU",
    });
  }, 60_000);
});

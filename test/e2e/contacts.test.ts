// The contacts screen in a real browser, against the real API: find a contact by a fragment of
// their phone number, open their page (conversations, labels, edit), create one, import a CSV and
// export one, delete; agents see the list but neither the CSV tools nor delete.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { addAgent, browserSuite, focusedId, haveChromium, shot, until } from "./browser.ts";
import { accountApi, seedConversation, type AccountApi } from "./seed.ts";

if (!haveChromium)
  console.warn("test/e2e/contacts.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

const AGENT = { email: "moe@example.com", password: "agent password 5" };

let admin: AccountApi;
let inboxId: number;

const results = (page: Page) => page.getByRole("table", { name: "Contacts" });

describe.skipIf(!haveChromium)("contacts in chromium", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
      inboxId = (await admin.post("/inboxes", { name: "Support API", channel: { type: "api" } })).id;
      await addAgent(s, "Moe Agent", AGENT.email, AGENT.password);
      await admin.post("/labels", { title: "vip" });
      await seedConversation(
        admin,
        inboxId,
        { name: "Nina Phone", phone_number: "+351912000111" },
        "Hello from Lisbon",
      );
      await admin.post("/contacts", { name: "Omar Mail", email: "omar@example.com" });
    },
  });

  async function openContacts(email?: string, password?: string): Promise<Page> {
    const page = await openPage();
    await signIn(page, email, password);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.getByRole("link", { name: "Contacts" }).click();
    await page.getByRole("heading", { name: "Contacts", level: 1 }).waitFor();
    return page;
  }

  test("find by phone, open the contact, label and edit them", async () => {
    const page = await openContacts();
    await results(page).getByRole("link", { name: "Omar Mail" }).waitFor();
    await page.getByLabel("Search contacts").fill("912000");
    await page.getByRole("status").getByText("1 contact matches “912000”").waitFor();
    expect(await results(page).getByRole("link").allTextContents()).toEqual(["Nina Phone"]);
    await shot(page, "60-contacts");

    await results(page).getByRole("link", { name: "Nina Phone" }).click();
    await page.getByRole("heading", { name: "Nina Phone", level: 1 }).waitFor();
    await page.getByRole("link", { name: /^#\d+ · Support API$/ }).waitFor();
    await page.getByLabel("Add a label").selectOption("vip");
    await page.getByRole("button", { name: "Remove label vip" }).waitFor();
    const contact = (await admin.get("/contacts/search?q=912000")).payload[0];
    expect((await admin.get(`/contacts/${contact.id}/labels`)).payload).toEqual(["vip"]);

    await page.getByRole("button", { name: "Edit contact" }).click();
    // The form puts focus in its first field a frame after it renders: typing before that would
    // land in the name (seen under load), so wait for it.
    await focusedId(page, "contact-name");
    const phone = page.getByLabel("Phone number");
    await phone.fill("+351 912 000 222");
    expect(await phone.inputValue()).toBe("+351 912 000 222");
    const saved = page.waitForResponse(
      (r) => r.request().method() === "PATCH" && r.url().endsWith(`/contacts/${contact.id}`),
    );
    await page.getByRole("button", { name: "Save contact" }).click();
    const answer = await saved;
    expect([answer.status(), (await answer.json()).payload.phone_number]).toEqual([200, "+351912000222"]);
    await page.getByText("+351912000222").waitFor();
    expect((await admin.get(`/contacts/${contact.id}`)).payload.phone_number).toBe("+351912000222");
  }, 60_000);

  test("create a contact, import a CSV, export, delete", async () => {
    const page = await openContacts();
    await page.getByRole("button", { name: "New contact" }).click();
    await focusedId(page, "contact-name");
    const form = page.getByRole("form", { name: "New contact" });
    await form.getByLabel("Name").fill("Pat New");
    await form.getByLabel("Email").fill("pat@example.com");
    await form.getByRole("button", { name: "Create contact" }).click();
    await page.getByRole("heading", { name: "Pat New", level: 1 }).waitFor();
    expect(
      (await admin.get("/contacts/search?q=pat@example.com")).payload.map((c: { name: string }) => c.name),
    ).toEqual(["Pat New"]);

    await page.getByRole("link", { name: "← All contacts" }).click();
    await page.getByText("Import or export as CSV").click();
    await page.getByLabel(/^CSV file/).setInputFiles({
      name: "people.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("name,email\nQuinn Import,quinn@example.com\nBroken,not-an-email\n"),
    });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByText("2 rows: 1 created, 0 updated, 1 refused.").waitFor();
    expect(await page.getByRole("list", { name: "Refused rows" }).innerText()).toBe(
      "Row 3: email is not a valid email address",
    );
    await results(page).getByRole("link", { name: "Quinn Import" }).waitFor();

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export all contacts" }).click();
    const csv = readFileSync(await (await download).path(), "utf8");
    expect(csv.split("\r\n")[0]).toBe("id,name,email,phone_number,identifier,company_name,created_at");
    expect(csv).toContain(",Quinn Import,quinn@example.com,");

    await results(page).getByRole("link", { name: "Quinn Import" }).click();
    await page.getByRole("button", { name: "Delete contact" }).click();
    await page
      .getByRole("group", { name: "Delete Quinn Import?" })
      .getByRole("button", { name: "Delete contact" })
      .click();
    await page.getByRole("heading", { name: "Contacts", level: 1 }).waitFor();
    await until(async () => (await admin.get("/contacts/search?q=quinn@example.com")).payload.length === 0);
  }, 60_000);

  test("agents see the contacts but not the CSV tools or delete", async () => {
    const page = await openContacts(AGENT.email, AGENT.password);
    await results(page).getByRole("link", { name: "Omar Mail" }).click();
    await page.getByRole("heading", { name: "Omar Mail", level: 1 }).waitFor();
    expect(await page.getByRole("button", { name: "Delete contact" }).count()).toBe(0);
    await page.getByRole("link", { name: "← All contacts" }).click();
    await results(page).waitFor();
    expect(await page.getByText("Import or export as CSV").count()).toBe(0);
  }, 60_000);
});

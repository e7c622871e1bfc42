// A contact's page in a real browser: notes (add, see who wrote it, delete) and merging a duplicate
// into the contact (find it, confirm; its conversation moves here and it is gone).
import { describe, expect, test } from "bun:test";
import { browserSuite, haveChromium, shot, type WebServer } from "./browser.ts";
import { accountApi, seedConversation, type AccountApi } from "./seed.ts";

if (!haveChromium)
  console.warn(
    "test/e2e/contact-notes-merge.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)",
  );

let server: WebServer;
let admin: AccountApi;

describe.skipIf(!haveChromium)("a contact's notes and merge in chromium", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      server = s;
      admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
    },
  });

  test("add and delete a note; merge a duplicate and see its conversation move here", async () => {
    const inbox = (await admin.post("/inboxes", { name: "Support API", channel: { type: "api" } })).id;
    const main = await seedConversation(
      admin,
      inbox,
      { name: "Rita Real", email: "rita@example.com" },
      "First question",
    );
    const dup = await seedConversation(
      admin,
      inbox,
      { name: "Rita R.", phone_number: "+351913000444" },
      "Second question",
    );
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/contacts/${main.contactId}`);
    await page.getByRole("heading", { name: "Rita Real", level: 1 }).waitFor();

    await page.getByLabel("New note").fill("Prefers email over phone");
    await page.getByRole("button", { name: "Add note" }).click();
    const notes = page.getByRole("list", { name: "Notes" });
    await notes.getByText("Prefers email over phone").waitFor();
    await notes.getByText(/^Administrator, /).waitFor();
    expect((await admin.get(`/contacts/${main.contactId}/notes`)).map((n: { content: string }) => n.content)).toEqual([
      "Prefers email over phone",
    ]);

    await page.getByLabel("Find the other contact").fill("913000");
    await page.getByRole("button", { name: "Find", exact: true }).click();
    await page
      .getByRole("list", { name: "Contacts found" })
      .getByRole("button", { name: /Rita R\./ })
      .click();
    await page.getByRole("group", { name: "Confirm the merge" }).getByRole("button", { name: "Merge" }).click();
    await page.getByRole("status").getByText("Rita R. was merged into Rita Real.").waitFor();
    await page.getByRole("link", { name: `#${dup.id} · Support API` }).waitFor();
    await page.getByRole("link", { name: `#${main.id} · Support API` }).waitFor();
    await shot(page, "63-contact-notes-merge");
    const merged = (await admin.get(`/contacts/${main.contactId}`)).payload;
    expect(merged.phone_number).toBe("+351913000444"); // the duplicate's details fill the blanks
    const gone = await fetch(`${server.base}/api/v1/accounts/${server.first.account_id}/contacts/${dup.contactId}`, {
      headers: { api_access_token: server.first.api_access_token },
    });
    expect(gone.status).toBe(404);

    await page.getByRole("button", { name: "Delete the note “Prefers email over phone”" }).click();
    await page.getByText("No notes yet.").waitFor();
    expect(await admin.get(`/contacts/${main.contactId}/notes`)).toEqual([]);
  }, 60_000);

  test("the contacts list filters by label and by a custom attribute", async () => {
    await admin.post("/labels", { title: "gold" });
    const ana = (
      await admin.post("/contacts", { name: "Ana Gold", email: "ana@example.com", custom_attributes: { plan: "pro" } })
    ).payload.contact.id;
    await admin.post("/contacts", { name: "Bo Plain", email: "bo@example.com", custom_attributes: { plan: "free" } });
    await admin.post(`/contacts/${ana}/labels`, { labels: ["gold"] });
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.getByRole("link", { name: "Contacts" }).click();
    const table = page.getByRole("table", { name: "Contacts" });
    await table.getByRole("link", { name: "Bo Plain" }).waitFor();
    await page.getByLabel("Label", { exact: true }).selectOption("gold");
    await page.getByRole("status").getByText("1 contact", { exact: true }).waitFor();
    expect(await table.getByRole("link").allTextContents()).toEqual(["Ana Gold"]);
    await page.getByRole("button", { name: "Clear filters" }).click();
    await table.getByRole("link", { name: "Bo Plain" }).waitFor();
    await page.getByLabel("Custom attribute", { exact: true }).fill("plan");
    await page.getByLabel("equals", { exact: true }).fill("free");
    await page.getByLabel("equals", { exact: true }).press("Tab");
    await page.getByRole("status").getByText("1 contact", { exact: true }).waitFor();
    expect(await table.getByRole("link").allTextContents()).toEqual(["Bo Plain"]);
  }, 60_000);
});

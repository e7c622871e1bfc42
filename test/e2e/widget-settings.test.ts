// The website chat in the agents' web app: an administrator creates a website inbox, copies the
// embed code shown for it, and edits the chat's settings (look, pre-chat form, allowed origins,
// identity verification); a refused origin shows under its field and changes nothing.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { browserSuite, haveChromium, shot, type WebServer } from "./browser.ts";
import { accountApi, type AccountApi } from "./seed.ts";

if (!haveChromium)
  console.warn(
    "test/e2e/widget-settings.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)",
  );

let server: WebServer;
let admin: AccountApi;
const status = (page: Page, text: string) => page.getByRole("status").getByText(text).waitFor();

describe.skipIf(!haveChromium)("website chat settings", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      server = s;
      admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
    },
  });

  test("create a website inbox, see its embed code, edit the chat's settings", async () => {
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/settings/inboxes`);
    await page.getByLabel("Site name").fill("Shop website");
    await page.getByLabel("Website URL").fill("https://shop.example.com");
    await page.getByRole("button", { name: "Create website inbox" }).click();
    await page.getByRole("heading", { name: "Shop website", level: 2 }).waitFor();
    const inbox = (await admin.get("/inboxes")).payload.find((i: any) => i.name === "Shop website");
    const code = await page.getByLabel("Embed code for this inbox").inputValue();
    expect(code).toContain(`var BASE_URL="${server.base}"`);
    expect(code).toContain(`websiteToken: '${inbox.website_token}'`);

    const form = page.locator("form", { has: page.getByRole("heading", { name: "Website chat" }) });
    await form.getByLabel("Welcome title").fill("Hi, we are Shop");
    await form.getByLabel("Usually replies").selectOption("in_a_few_hours");
    await form.getByLabel("Ask visitors for their details before the chat starts").check();
    await form.getByLabel("Ask for Email").check();
    await form.getByRole("button", { name: "Add a question" }).click();
    await form.getByLabel("Label of custom_1").fill("Order number");
    await form.getByLabel("Key of Order number").fill("order_number");
    await form.getByLabel("Sites allowed to embed the chat").fill("not a url");
    await form.getByRole("button", { name: "Save website chat" }).click();
    await form.getByText(/must be an http or https origin/).waitFor();
    expect((await admin.get(`/inboxes/${inbox.id}`)).welcome_title).toBeNull();

    await form
      .getByLabel("Sites allowed to embed the chat")
      .fill("https://shop.example.com\nhttps://www.shop.example.com");
    await form.getByLabel("Require identity verification (identifier_hash) for setUser").check();
    await form.getByRole("button", { name: "Save website chat" }).click();
    await status(page, "Website chat saved.");
    const saved = await admin.get(`/inboxes/${inbox.id}`);
    expect([
      saved.welcome_title,
      saved.reply_time,
      saved.pre_chat_form_enabled,
      saved.allowed_origins,
      saved.hmac_mandatory,
    ]).toEqual([
      "Hi, we are Shop",
      "in_a_few_hours",
      true,
      ["https://shop.example.com", "https://www.shop.example.com"],
      true,
    ]);
    const fields = saved.pre_chat_form_options.pre_chat_fields.map((f: any) => [f.name, f.enabled, f.field_type]);
    expect(fields).toEqual([
      ["emailAddress", true, "standard"],
      ["fullName", false, "standard"],
      ["phoneNumber", false, "standard"],
      ["order_number", true, "contact_attribute"],
    ]);
    await shot(page, "60-settings-website-chat");
  }, 60_000);
});

// Labels typed on a conversation follow the Labels page's title rule: a title the account has no
// label for is created through the Labels API (so it shows on the Labels page), a refused one is
// explained under the field and changes nothing, and an agent cannot invent a label.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { addAgent, browserSuite, haveChromium, type WebServer } from "./browser.ts";
import { accountApi, seedConversation, type AccountApi } from "./seed.ts";

if (!haveChromium)
  console.warn(
    "test/e2e/conversation-labels.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)",
  );

const AGENT = { email: "lee@example.com", password: "agent password 9" };

let server: WebServer;
let admin: AccountApi;
let inboxId: number;

const titles = async () => ((await admin.get("/labels")).payload as { title: string }[]).map((l) => l.title).sort();

describe.skipIf(!haveChromium)("labels typed on a conversation", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      server = s;
      admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
      inboxId = (await admin.post("/inboxes", { name: "Support API", channel: { type: "api" } })).id;
      const agentId = await addAgent(s, "Lee Agent", AGENT.email, AGENT.password);
      await admin.post(`/inbox_members`, { inbox_id: inboxId, user_ids: [agentId] });
      await admin.post("/labels", { title: "billing" });
    },
  });

  async function openConversation(page: Page, id: number): Promise<void> {
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/conversations/${id}`);
    await page.getByLabel("Add a label").waitFor();
  }

  const addLabel = async (page: Page, typed: string) => {
    await page.getByLabel("Add a label").fill(typed);
    await page.getByRole("button", { name: "Add", exact: true }).click();
  };

  test("an administrator: a new title becomes a label, a bad one is refused in words", async () => {
    const c = await seedConversation(
      admin,
      inboxId,
      { name: "Ola Customer", email: "ola@example.com" },
      "Where is my refund?",
    );
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await openConversation(page, c.id);

    await addLabel(page, "needs refund");
    await page
      .getByRole("alert")
      .getByText(
        "Label is invalid: start with a letter or digit, then letters, digits, - or _, no spaces, at least 2 characters",
      )
      .waitFor();
    expect((await admin.get(`/conversations/${c.id}/labels`)).payload).toEqual([]);
    expect(await titles()).toEqual(["billing"]);

    await addLabel(page, "Refund");
    await page.getByRole("button", { name: "Remove label refund" }).waitFor();
    expect((await admin.get(`/conversations/${c.id}/labels`)).payload).toEqual(["refund"]);
    expect(await titles()).toEqual(["billing", "refund"]);

    await addLabel(page, "BILLING");
    await page.getByRole("button", { name: "Remove label billing" }).waitFor();
    expect((await admin.get(`/conversations/${c.id}/labels`)).payload.sort()).toEqual(["billing", "refund"]);
  }, 60_000);

  test("an agent picks the account's labels but cannot invent one", async () => {
    const c = await seedConversation(
      admin,
      inboxId,
      { name: "Pia Customer", email: "pia@example.com" },
      "Invoice question",
    );
    const page = await openPage();
    await signIn(page, AGENT.email, AGENT.password);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await openConversation(page, c.id);

    await addLabel(page, "urgent");
    await page
      .getByRole("alert")
      .getByText("There is no label urgent: an administrator can add it on the Labels page.")
      .waitFor();
    expect((await admin.get(`/conversations/${c.id}/labels`)).payload).toEqual([]);

    await addLabel(page, "billing");
    await page.getByRole("button", { name: "Remove label billing" }).waitFor();
    expect((await admin.get(`/conversations/${c.id}/labels`)).payload).toEqual(["billing"]);
  }, 60_000);
});

// Settings › Reports against the real API: the account overview counts what happened (a customer's
// two messages, the agent's reply, one resolution) and shows the CSAT average; the satisfaction
// answers list the customer's rating and words with a link to the conversation.
import { describe, expect, test } from "bun:test";
import { browserSuite, haveChromium, shot, type WebServer } from "./browser.ts";
import { accountApi, type AccountApi } from "./seed.ts";

if (!haveChromium)
  console.warn(
    "test/e2e/reports-overview.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)",
  );

let server: WebServer;
let admin: AccountApi;
let conversationId: number;

async function publicCall(method: string, path: string, body?: unknown) {
  const r = await fetch(`${server.base}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect({ path, status: r.status }).toEqual({ path, status: 200 });
  return r.json();
}

describe.skipIf(!haveChromium)("reports overview and satisfaction answers", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      server = s;
      admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
      const inbox = await admin.post("/inboxes", {
        name: "Website",
        channel: { type: "api" },
        csat_survey_enabled: true,
      });
      const base = `/public/api/v1/inboxes/${inbox.inbox_identifier}`;
      const contact = await publicCall("POST", `${base}/contacts`, { name: "Rosa Rating", email: "rosa@example.com" });
      const me = `${base}/contacts/${contact.source_id}`;
      conversationId = (await publicCall("POST", `${me}/conversations`, {})).id;
      const messages = `${me}/conversations/${conversationId}/messages`;
      await publicCall("POST", messages, { content: "Hello" });
      await publicCall("POST", messages, { content: "My parcel is late" });
      await admin.post(`/conversations/${conversationId}/messages`, { content: "It arrives tomorrow." });
      await admin.post(`/conversations/${conversationId}/toggle_status`, { status: "resolved" });
      const survey = (await publicCall("GET", messages)).at(-1);
      await publicCall("PATCH", `${messages}/${survey.id}`, {
        submitted_values: { csat_survey_response: { rating: 4, feedback_message: "Quick, thanks" } },
      });
    },
  });

  test("the overview's figures and the answers list", async () => {
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/settings/reports`);
    const tiles = page.getByLabel("Overview, last 7 days");
    await tiles.waitFor();
    const figure = async (term: string) =>
      (
        await tiles
          .locator("div", { has: page.getByRole("term").getByText(term, { exact: true }) })
          .locator("dd")
          .first()
          .innerText()
      ).trim();
    expect(await figure("Conversations")).toBe("1");
    expect(await figure("Incoming messages")).toBe("2");
    // The agent's reply; the survey is a template message, not an outgoing one.
    expect(await figure("Outgoing messages")).toBe("1");
    expect(await figure("Resolutions")).toBe("1");
    expect(await figure("Satisfaction")).toBe("4.0 of 5");
    expect(await tiles.locator("div", { hasText: "Satisfaction" }).locator("dd.hint").innerText()).toBe("1 answer");

    const answers = page.getByRole("table", { name: "Satisfaction answers" });
    const row = answers.getByRole("row").nth(1);
    expect(await row.getByRole("cell").allInnerTexts()).toEqual([
      "★★★★☆",
      "Quick, thanks",
      "Rosa Rating",
      "—",
      `#${conversationId}`,
      "now",
    ]);
    await shot(page, "61-reports-overview");
    await row.getByRole("link", { name: `#${conversationId}` }).click();
    await page.getByRole("heading", { name: "Rosa Rating", level: 2 }).waitFor();
  }, 60_000);
});

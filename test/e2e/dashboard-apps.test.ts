// Dashboard apps in the browser: the administrator adds one in Settings; beside a conversation its
// tab shows the app's page (served here, on another origin) in a sandboxed frame, which receives
// Chatwoot's appContext message on load and again when it asks; an agent gets the tab but not the
// settings; deleting the app takes its tab away.
import { afterAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { addAgent, browserSuite, haveChromium, shot, type WebServer } from "./browser.ts";
import { accountApi, seedConversation, type Seeded } from "./seed.ts";

if (!haveChromium)
  console.warn("test/e2e/dashboard-apps.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

const AGENT = { name: "Ana Agent", email: "ana@example.com", password: "ana-agent-password-1" };

// The app: a page that writes each message it receives into its DOM, and a button that asks for
// the context again the way Chatwoot's apps do.
const APP_PAGE = `<!doctype html><meta charset="utf-8"><title>Orders app</title>
<p id="got">waiting</p><button id="again" type="button">Ask again</button>
<script>
  let count = 0;
  window.addEventListener("message", (e) => {
    const m = JSON.parse(e.data);
    count += 1;
    document.getElementById("got").textContent = [count, m.event, "conversation " + m.data.conversation.id,
      "contact " + m.data.contact.name, "agent " + m.data.currentAgent.email].join(" | ");
  });
  document.getElementById("again").onclick = () => parent.postMessage("chatwoot-dashboard-app:fetch-info", "*");
</script>`;

let server: WebServer;
let seeded: Seeded;
/** The Referer header of each load of the app's page ("" when none was sent). */
const referers: string[] = [];
const appServer = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request) {
    if (new URL(request.url).pathname !== "/orders") return new Response("not found", { status: 404 });
    referers.push(request.headers.get("referer") ?? "");
    return new Response(APP_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
  },
});
const appOrigin = `http://127.0.0.1:${appServer.port}`;

const settingsPath = () => `${server.base}/app/accounts/${server.first.account_id}/settings/dashboard-apps`;
const conversationPath = () => `${server.base}/app/accounts/${server.first.account_id}/conversations/${seeded.id}`;

/** Opens the conversation and waits until the screen has the account's apps (the tabs depend on them). */
async function openConversation(page: Page) {
  const apps = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith("/dashboard_apps"));
  await page.goto(conversationPath());
  expect((await apps).status()).toBe(200);
  await page.getByRole("heading", { name: "Dana Cliente", level: 2 }).waitFor();
}

describe.skipIf(!haveChromium)("dashboard apps", () => {
  const { openPage, signIn } = browserSuite({
    elsewhere: () => [`${appOrigin}/`],
    setup: async (s) => {
      server = s;
      const admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
      const inbox = await admin.post("/inboxes", { name: "Support", channel: { type: "api" } });
      seeded = await seedConversation(admin, inbox.id, { name: "Dana Cliente" }, "Where is order 1001?");
      const agentId = await addAgent(s, AGENT.name, AGENT.email, AGENT.password);
      await admin.post("/inbox_members", { inbox_id: inbox.id, user_ids: [agentId] });
    },
  });
  afterAll(() => appServer.stop(true));

  test("the administrator adds an app; its tab frames the page, which gets the conversation", async () => {
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(settingsPath());
    await page.getByText("No dashboard apps yet.").waitFor();

    // Required fields are checked here; the URL's scheme is the server's 422, under its field.
    await page.getByRole("button", { name: "Create dashboard app" }).click();
    expect(await page.locator("#dashboard-app-title-error").innerText()).toBe("Name can't be blank");
    expect(await page.locator("#dashboard-app-url-error").innerText()).toBe("URL can't be blank");
    await page.getByLabel("Name").fill("Orders");
    await page.getByLabel("URL", { exact: true }).fill("javascript:alert(1)");
    await page.getByRole("button", { name: "Create dashboard app" }).click();
    await page
      .locator("#dashboard-app-url-error")
      .getByText(/^URL must be an http\(s\) URL/)
      .waitFor();
    expect(await page.locator("#dashboard-app-title-error").count()).toBe(0);
    expect(await page.getByLabel("URL", { exact: true }).getAttribute("aria-invalid")).toBe("true");

    await page.getByLabel("URL", { exact: true }).fill(`${appOrigin}/orders`);
    await page.getByRole("button", { name: "Create dashboard app" }).click();
    await page.getByRole("status").getByText("Orders created.").waitFor();
    const cells = page.getByRole("table", { name: "Dashboard apps" }).locator("tbody td");
    expect((await cells.allInnerTexts()).slice(0, 2)).toEqual(["Orders", `${appOrigin}/orders`]);
    await shot(page, "dashboard-apps-settings");

    // Edit fills the form with the app; saving changes it in place.
    await page.getByRole("button", { name: "Edit Orders" }).click();
    await page.getByRole("heading", { name: "Edit Orders" }).waitFor();
    expect(await page.getByLabel("URL", { exact: true }).inputValue()).toBe(`${appOrigin}/orders`);
    await page.getByLabel("URL", { exact: true }).fill(`${appOrigin}/orders?v=2`);
    await page.getByRole("button", { name: "Save dashboard app" }).click();
    await page.getByRole("status").getByText("Orders saved.").waitFor();
    await page.getByRole("heading", { name: "Add a dashboard app" }).waitFor();
    expect((await cells.allInnerTexts()).slice(0, 2)).toEqual(["Orders", `${appOrigin}/orders?v=2`]);

    await openConversation(page);
    const views = page.getByRole("group", { name: "Views" });
    await views.waitFor();
    expect(await views.getByRole("button").allInnerTexts()).toEqual(["Messages", "Orders"]);
    expect(await views.getByRole("button", { name: "Messages" }).getAttribute("aria-pressed")).toBe("true");
    await views.getByRole("button", { name: "Orders" }).click();
    const frame = page.locator("iframe.app-frame");
    expect(await frame.getAttribute("sandbox")).toBe("allow-scripts allow-forms allow-same-origin allow-popups");
    expect(await frame.getAttribute("title")).toBe("Orders");
    const app = page.frameLocator("iframe.app-frame");
    const context = `appContext | conversation ${seeded.id} | contact Dana Cliente | agent ${server.first.email}`;
    await app.locator("#got").getByText(`1 | ${context}`, { exact: true }).waitFor();
    expect(referers).toEqual([""]); // referrerpolicy="no-referrer": the app learns no Parley URL
    expect(await page.getByLabel("Reply to Dana Cliente").count()).toBe(0);
    await shot(page, "dashboard-apps-frame");

    // Chatwoot's apps ask again with "chatwoot-dashboard-app:fetch-info".
    await app.getByRole("button", { name: "Ask again" }).click();
    await app.locator("#got").getByText(`2 | ${context}`, { exact: true }).waitFor();

    await views.getByRole("button", { name: "Messages" }).click();
    await page.getByLabel("Reply to Dana Cliente").waitFor();
    expect(await frame.count()).toBe(0);
  }, 60_000);

  test("an agent has the app's tab but no settings", async () => {
    const page = await openPage();
    await signIn(page, AGENT.email, AGENT.password);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link").allInnerTexts()).toEqual(["Conversations", "Contacts"]);
    await page.goto(settingsPath());
    await page.getByRole("heading", { name: "Not allowed" }).waitFor();
    expect(await page.getByText("Dashboard apps").count()).toBe(0);

    await openConversation(page);
    await page.getByRole("group", { name: "Views" }).getByRole("button", { name: "Orders" }).click();
    const context = `appContext | conversation ${seeded.id} | contact Dana Cliente | agent ${AGENT.email}`;
    await page.frameLocator("iframe.app-frame").locator("#got").getByText(`1 | ${context}`, { exact: true }).waitFor();
  }, 60_000);

  test("deleting the app takes its tab away", async () => {
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(settingsPath());
    await page.getByRole("button", { name: "Delete Orders" }).click();
    await page.getByRole("group", { name: "Delete Orders?" }).getByRole("button", { name: "Delete" }).click();
    await page.getByRole("status").getByText("Orders deleted.").waitFor();
    await page.getByText("No dashboard apps yet.").waitFor();

    await openConversation(page);
    await page.getByLabel("Reply to Dana Cliente").waitFor();
    expect(await page.getByRole("group", { name: "Views" }).count()).toBe(0);
  }, 60_000);
});

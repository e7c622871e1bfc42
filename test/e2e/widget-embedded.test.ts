// The website chat in a real browser, embedded on another site as customers do (./widget-host.ts): pre-chat form,
// live replies and "Read", reload, CSAT; setUser's identifier_hash; chatwootSettings; a phone; after hours; popout.
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Frame, Page } from "playwright-core";
import { haveChromium, shot, until, type Chromium, type WebServer } from "./browser.ts";
import type { AccountApi } from "./seed.ts";
import { startEmbeddedChat, type EmbeddedChat, type HostSite } from "./widget-host.ts";
import { pngFile } from "../helpers/files.ts";

if (!haveChromium)
  console.warn(
    "test/e2e/widget-embedded.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)",
  );

describe.skipIf(!haveChromium)("website chat embedded on another site", () => {
  let world: EmbeddedChat;
  let server: WebServer;
  let browser: Chromium;
  let admin: AccountApi;
  let site: HostSite;
  let inbox: EmbeddedChat["inbox"];
  const problems: string[] = [];

  beforeAll(async () => {
    world = await startEmbeddedChat();
    ({ server, browser, admin, site, inbox } = world);
  }, 60_000);

  afterAll(async () => {
    await world?.stop();
  });

  async function open(settings?: Record<string, unknown>, otherToken?: string): Promise<{ page: Page; chat: Frame }> {
    const page = await browser.context.newPage();
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    const query = new URLSearchParams({
      ...(settings ? { settings: JSON.stringify(settings) } : {}),
      ...(otherToken ? { token: otherToken } : {}),
    });
    await page.goto(`${site.origin}/?${query}`);
    await page.waitForFunction(() => (window as any).$chatwoot?.hasLoaded === true, undefined, { timeout: 8000 });
    const chat = page.frames().find((f) => f.url().startsWith(`${server.base}/widget`))!;
    return { page, chat };
  }

  const bubble = (page: Page) => page.locator("#parley-chat").locator("button");
  const conversations = () =>
    server.deps.db
      .query("SELECT display_id, status FROM conversations WHERE inbox_id = ? ORDER BY id")
      .all(inbox.id) as { display_id: number; status: string }[];

  test("pre-chat form, send, a live reply, unread badge, reload keeps the thread, CSAT after resolve", async () => {
    const { page, chat } = await open();
    const ready = await page.evaluate(() => new Promise((resolve) => resolve((window as any).$chatwoot.isOpen())));
    expect(ready).toBe(false);
    await bubble(page).click();
    await chat.getByText("Hello from Shop").waitFor();
    await chat.getByText("Tell us who you are").waitFor();
    await chat.getByRole("button", { name: "Start conversation" }).click();
    await chat.getByRole("alert").filter({ hasText: "Please fill in Full name" }).waitFor();
    await chat.getByLabel("Full name").fill("Vera Visitor");
    await chat.getByLabel("Email").fill("vera@example.com");
    await chat.getByLabel("Message").fill("Do you ship to Lisbon?");
    await chat.getByRole("button", { name: "Start conversation" }).click();
    await chat.locator(".msg.mine", { hasText: "Do you ship to Lisbon?" }).waitFor();
    const conv = (await until(() => conversations()[0]))!;
    const contact = await admin.get(`/conversations/${conv.display_id}`);
    expect([contact.meta.sender.name, contact.meta.sender.email]).toEqual(["Vera Visitor", "vera@example.com"]);
    // Read receipts: "Sent" under the visitor's message until an agent opens the conversation, then "Read", live.
    const receipt = chat.locator(".msg.mine", { hasText: "Do you ship to Lisbon?" }).locator(".receipt");
    await receipt.getByText("Sent", { exact: true }).waitFor();
    await admin.post(`/conversations/${conv.display_id}/update_last_seen`);
    await receipt.getByText("Read", { exact: true }).waitFor();

    // The agent answers through the account API: the reply appears with no reload, escaped, with markdown-lite.
    const onMessage = page.evaluate(
      () =>
        new Promise((resolve) =>
          window.addEventListener("chatwoot:on-message", (e) => resolve((e as CustomEvent).detail), { once: true }),
        ),
    );
    await admin.post(`/conversations/${conv.display_id}/messages`, {
      content: "Yes, **free** shipping <img src=x onerror=alert(1)>",
    });
    await chat.locator(".msg.theirs strong", { hasText: "free" }).waitFor();
    expect(await chat.locator(".msg.theirs img").count()).toBe(0);
    await chat.locator(".msg.theirs", { hasText: "<img src=x onerror=alert(1)>" }).waitFor();
    expect(((await onMessage) as { content: string }).content).toContain("free");
    await shot(page, "61-website-chat-embedded");
    await admin.post(`/conversations/${conv.display_id}/messages`, { content: "private: check stock", private: true });

    // Closed: the next reply shows as an unread badge on the bubble.
    await page.evaluate(() => (window as any).$chatwoot.toggle("close"));
    await admin.post(`/conversations/${conv.display_id}/messages`, { content: "Anything else?" });
    await page.locator("#parley-chat").locator(".badge", { hasText: "1" }).waitFor();

    // Reload: same visitor, same thread, no private note.
    await page.reload();
    await page.waitForFunction(() => (window as any).$chatwoot?.hasLoaded === true, undefined, { timeout: 8000 });
    const again = page.frames().find((f) => f.url().startsWith(`${server.base}/widget`))!;
    await page.evaluate(() => (window as any).$chatwoot.toggle("open"));
    await again.locator(".msg.theirs", { hasText: "Anything else?" }).waitFor();
    expect(await again.locator(".msg").allInnerTexts()).toHaveLength(3);
    expect(await again.getByText("private: check stock").count()).toBe(0);
    expect(conversations()).toHaveLength(1);

    // A photo with the paperclip: it shows in the chat as an image from the server, and the agent has it.
    await again
      .locator('.composer input[type="file"]')
      .setInputFiles({ name: "receipt.png", mimeType: "image/png", buffer: Buffer.from(pngFile(24, 16, 2)) });
    await again.waitForFunction(
      () => (document.querySelector(".msg.mine .file img") as HTMLImageElement | null)?.naturalWidth === 24,
    );
    const files = await admin.get(`/conversations/${conv.display_id}/attachments`);
    expect(files.payload.map((a: any) => [a.file_type, a.width, a.height])).toEqual([["image", 24, 16]]);
    expect(conversations()).toHaveLength(1);

    // Resolve: the CSAT survey arrives live and is answered with the buttons.
    await admin.post(`/conversations/${conv.display_id}/toggle_status`, { status: "resolved" });
    await again.getByRole("button", { name: "Very satisfied" }).click();
    await again.getByRole("button", { name: "Submit" }).click();
    await again.getByText("Thank you for your feedback").waitFor();
    const rating = await until(
      () => server.deps.db.query("SELECT rating FROM csat_survey_responses").get() as { rating: number },
    );
    expect(rating.rating).toBe(5);
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  test("setUser: a valid identifier_hash identifies the visitor, a forged one raises chatwoot:error", async () => {
    const { page } = await open();
    const hash = createHmac("sha256", inbox.hmac_token).update("customer-7").digest("hex");
    await page.evaluate(
      ([h]) =>
        (window as any).$chatwoot.setUser("customer-7", {
          name: "Cora Customer",
          email: "cora@example.com",
          identifier_hash: h,
        }),
      [hash],
    );
    const cora = await until(
      () =>
        server.deps.db.query("SELECT name, email FROM contacts WHERE identifier = 'customer-7'").get() as {
          name: string;
          email: string;
        },
    );
    expect(cora).toEqual({ name: "Cora Customer", email: "cora@example.com" });
    const verified = server.deps.db
      .query(
        "SELECT ci.hmac_verified FROM contact_inboxes ci JOIN contacts c ON c.id = ci.contact_id WHERE c.identifier = 'customer-7'",
      )
      .get() as { hmac_verified: number };
    expect(verified.hmac_verified).toBe(1);

    const error = page.evaluate(
      () =>
        new Promise((resolve) =>
          window.addEventListener("chatwoot:error", (e) => resolve((e as CustomEvent).detail), { once: true }),
        ),
    );
    await page.evaluate(() =>
      (window as any).$chatwoot.setUser("customer-8", { name: "Mallory", identifier_hash: "0".repeat(64) }),
    );
    expect(((await error) as { message: string }).message).toContain("HMAC failed");
    expect(
      server.deps.db
        .query("SELECT count(*) AS n FROM contacts WHERE identifier = 'customer-8' OR name = 'Mallory'")
        .get(),
    ).toEqual({ n: 0 });

    // reset() after the site signs the user out: the stored visitor is forgotten and the chat reloads without it.
    expect(await page.evaluate(() => document.cookie)).toContain(`cw_conversation_${inbox.website_token}=`);
    await page.evaluate(() => (window as any).$chatwoot.reset());
    expect(await page.evaluate(() => document.cookie)).not.toContain("cw_conversation_");
    expect(await page.evaluate((t) => localStorage.getItem(`cw_conversation_${t}`), inbox.website_token)).toBeNull();
    await page.close();
  }, 60_000);

  test("chatwootSettings: Portuguese, dark mode, expanded bubble with its title; setLocale to Arabic lays out right to left", async () => {
    const { page, chat } = await open({
      locale: "pt_BR",
      darkMode: "dark",
      type: "expanded_bubble",
      launcherTitle: "Fale com a loja",
    });
    await page.getByRole("button", { name: "Fale com a loja" }).click();
    await chat.getByText("Normalmente responde em alguns minutos").waitFor();
    expect(
      await chat.evaluate(() => [document.documentElement.lang, document.documentElement.classList.contains("dark")]),
    ).toEqual(["pt-BR", true]);
    await page.evaluate(() => (window as any).$chatwoot.setLocale("ar"));
    await chat.waitForFunction(() => document.documentElement.dir === "rtl");
    await page.evaluate(() => (window as any).$chatwoot.toggleBubbleVisibility("hide"));
    await page.getByRole("button", { name: /Close chat|Fale com a loja/ }).waitFor({ state: "hidden" });
    await page.close();
  }, 60_000);

  test("on a phone the open chat fills the screen; the bubble opens from the keyboard and the header closes it", async () => {
    const { page, chat } = await open();
    await page.setViewportSize({ width: 375, height: 667 });
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await chat.locator("main.chat").waitFor();
    await page.waitForFunction(() => (window as any).$chatwoot.isOpen() === true);
    const box = await page.locator("#parley-chat iframe").boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: 375, height: 667 });
    await chat.getByRole("button", { name: "Close chat" }).click();
    await page.waitForFunction(() => (window as any).$chatwoot.isOpen() === false);
    await page.close();
  }, 60_000);

  test("outside business hours: the away message, and a visitor without an email may leave one", async () => {
    const closed = [0, 1, 2, 3, 4, 5, 6].map((d) => ({ day_of_week: d, closed_all_day: true }));
    const night = await admin.post("/inboxes", {
      name: "Night shop",
      working_hours_enabled: true,
      working_hours: closed,
      out_of_office_message: "We are closed for the holidays.",
      allow_messages_after_resolved: false,
      channel: { type: "web_widget", website_url: site.origin, allowed_origins: [site.origin] },
    });
    const { page, chat } = await open(undefined, night.website_token);
    await bubble(page).click();
    await chat.getByRole("status").filter({ hasText: "We are closed for the holidays." }).waitFor();
    await chat.getByLabel("Message", { exact: true }).fill("Anyone there?");
    await chat.getByLabel("Message", { exact: true }).press("Enter");
    await chat.locator(".msg.mine", { hasText: "Anyone there?" }).waitFor();
    await chat.getByLabel("Get the reply by email").fill("owl@example.com");
    await chat.getByRole("button", { name: "Save" }).click();
    const owl = await until(
      () =>
        server.deps.db
          .query(
            "SELECT c.email FROM contacts c JOIN contact_inboxes ci ON ci.contact_id = c.id WHERE ci.inbox_id = ? AND c.email IS NOT NULL",
          )
          .get(night.id) as { email: string },
    );
    expect(owl.email).toBe("owl@example.com");
    await chat.getByLabel("Get the reply by email").waitFor({ state: "detached" });

    // Resolved, and this inbox takes no more messages in it: the next message starts a new
    // conversation and the old one is listed as an earlier conversation.
    const first = (
      server.deps.db.query("SELECT display_id FROM conversations WHERE inbox_id = ?").get(night.id) as {
        display_id: number;
      }
    ).display_id;
    await admin.post(`/conversations/${first}/toggle_status`, { status: "resolved" });
    await chat.getByText("This conversation has ended.").waitFor();
    await chat.getByLabel("Message", { exact: true }).fill("One more thing");
    await chat.getByLabel("Message", { exact: true }).press("Enter");
    await chat.getByText("Earlier conversations (1)").waitFor();
    await chat.locator(".msg.mine", { hasText: "One more thing" }).waitFor();
    expect(await chat.locator(".msg.mine").count()).toBe(1);
    await page.close();
  }, 60_000);

  test("the chat page on its own (popout, mobile web views): always open, keeps its visitor across reloads", async () => {
    const page = await browser.context.newPage();
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${server.base}/widget?website_token=${inbox.website_token}&locale=es`);
    await page.getByLabel("Full name").fill("Pia Popout");
    await page.getByLabel("Mensaje", { exact: true }).fill("Hola desde la ventana");
    await page.getByRole("button", { name: "Iniciar conversación" }).click();
    await page.locator(".msg.mine", { hasText: "Hola desde la ventana" }).waitFor();
    await page.reload();
    await page.locator(".msg.mine", { hasText: "Hola desde la ventana" }).waitFor();
    expect(await page.getByRole("button", { name: "Cerrar chat" }).count()).toBe(0);
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);
});

// The conversation list's order in a real browser: each choice of the sort select shows the
// conversations as the API's sort_by orders them, the choice stays in the address across a reload,
// and a conversation arriving over the socket goes where the order puts it. Also the thread's header
// at 1280 px: everything on one line. The server's clock runs ahead by a minute per step, so the
// seeded times differ without waiting.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { Clock } from "../../src/lib/clock.ts";
import { browserSuite, haveChromium, shot, type WebServer } from "./browser.ts";
import { accountApi, seedConversation, type AccountApi } from "./seed.ts";

if (!haveChromium)
  console.warn("test/e2e/list-sort.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

let ahead = 0;
const clock: Clock = { nowMs: () => Date.now() + ahead };
/** The next step happens a minute after the last one (seconds are the API's resolution). */
const later = () => void (ahead += 60_000);

let server: WebServer;
let admin: AccountApi;
let inboxId: number;
const seeded: Record<"A" | "B" | "C" | "D", number> = { A: 0, B: 0, C: 0, D: 0 };

const SELECT = "Sort conversations";
const LIST = 'ul[aria-label^="Conversations"] [data-conversation-id]';
const dashboard = () => `${server.base}/app/accounts/${server.first.account_id}/dashboard`;

/** The ids the list shows, top to bottom. */
const shown = (page: Page) =>
  page.$$eval(LIST, (links) => links.map((a) => Number(a.getAttribute("data-conversation-id"))));

/** Waits until the list shows exactly `ids`, in that order (it re-renders a frame after the data). */
async function expectOrder(page: Page, ids: number[]): Promise<void> {
  try {
    await page.waitForFunction(
      ([selector, want]) =>
        [...document.querySelectorAll(selector)].map((a) => a.getAttribute("data-conversation-id")).join() === want,
      [LIST, ids.join()] as const,
      { timeout: 10_000 },
    );
  } catch {
    expect(await shown(page)).toEqual(ids); // says what the list showed instead
  }
}

async function pick(page: Page, sort: string, label: string): Promise<void> {
  await page.getByLabel(SELECT).selectOption({ label });
  await page.waitForURL(sort === "latest" ? `${dashboard()}?tab=all` : `${dashboard()}?tab=all&sort=${sort}`);
}

describe.skipIf(!haveChromium)("the conversation list's order", () => {
  const { openPage, signIn } = browserSuite({
    clock,
    setup: async (s) => {
      server = s;
      admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
      inboxId = (await admin.post("/inboxes", { name: "Sort API", channel: { type: "api" } })).id;
      // Created A, B, C, D in that order, a minute apart, each with the customer's first message.
      for (const name of ["A", "B", "C", "D"] as const) {
        later();
        seeded[name] = (await seedConversation(admin, inboxId, { name: `Customer ${name}` }, `Hello from ${name}`)).id;
      }
      // Priorities (each one an activity: A, then D, then B are the latest touched).
      for (const [name, priority] of [
        ["A", "low"],
        ["D", "urgent"],
        ["B", "high"],
      ] as const) {
        later();
        await admin.post(`/conversations/${seeded[name]}/toggle_priority`, { priority });
      }
      // An agent answers B (nobody waits on it any more) and C, whose customer writes again: C now
      // waits since this last message, the newest activity of all.
      for (const [name, type] of [
        ["B", "outgoing"],
        ["C", "outgoing"],
        ["C", "incoming"],
      ] as const) {
        later();
        await admin.post(`/conversations/${seeded[name]}/messages`, {
          content: `${type} to ${name}`,
          message_type: type,
        });
      }
    },
  });

  test("each sort shows its order, the address keeps it across a reload, and a new conversation goes to its place", async () => {
    const { A, B, C, D } = seeded;
    // What the API answers, as the list must show it.
    const api = async (sortBy: string) =>
      (await admin.get(`/conversations?assignee_type=all&sort_by=${sortBy}`)).data.payload.map(
        (c: { id: number }) => c.id,
      );
    expect(await api("latest")).toEqual([C, B, D, A]);
    expect(await api("sort_on_created_at")).toEqual([A, B, C, D]);
    expect(await api("sort_on_priority")).toEqual([D, B, A, C]);
    expect(await api("sort_on_waiting_since")).toEqual([A, D, C, B]);

    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${dashboard()}?tab=all`);
    await expectOrder(page, [C, B, D, A]);
    expect(await page.getByLabel(SELECT).inputValue()).toBe("latest");

    await pick(page, "created", "Oldest conversations first");
    await expectOrder(page, [A, B, C, D]);
    await pick(page, "priority", "Highest priority first");
    await expectOrder(page, [D, B, A, C]);
    await pick(page, "waiting", "Waiting longest first");
    await expectOrder(page, [A, D, C, B]);
    await shot(page, "70-list-sorted-waiting");

    // A reload (or the link shared) shows the same order, with the select saying so.
    await page.reload();
    await expectOrder(page, [A, D, C, B]);
    expect(await page.getByLabel(SELECT).inputValue()).toBe("waiting");
    expect(page.url()).toBe(`${dashboard()}?tab=all&sort=waiting`);

    // A customer writes in: over the socket it joins the list after those waiting longer and before
    // the one nobody waits on, not on top (where "newest activity" would put it).
    later();
    const E = (await seedConversation(admin, inboxId, { name: "Customer E" }, "Hello from E")).id;
    await expectOrder(page, [A, D, C, E, B]);
    // Made urgent elsewhere: under "highest priority first" it heads the list (newer than D).
    await pick(page, "priority", "Highest priority first");
    await expectOrder(page, [D, B, A, E, C]);
    later();
    await admin.post(`/conversations/${E}/toggle_priority`, { priority: "urgent" });
    await expectOrder(page, [E, D, B, A, C]);
    await pick(page, "created", "Oldest conversations first");
    await expectOrder(page, [A, B, C, D, E]);
    await pick(page, "latest", "Newest activity first");
    await expectOrder(page, [E, C, B, D, A]);
  }, 60_000);

  test("at 1280 px the thread's header holds its title, actions and Details on one line", async () => {
    const page = await openPage(1280, 800);
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/conversations/${seeded.A}?tab=all`);
    await page.getByRole("heading", { name: "Customer A", level: 2 }).waitFor();
    const details = page.getByRole("button", { name: "Details", exact: true });
    await details.and(page.locator('[aria-expanded="true"]')).waitFor(); // the details pane shows beside it
    await shot(page, "71-thread-header-1280");

    const box = async (name: string, locator = page.locator(name)) => (await locator.boundingBox())!;
    const header = await box(".thread-header");
    const title = await box(".thread-title");
    const controls = {
      resolve: await box("resolve", page.getByRole("button", { name: "Resolve", exact: true })),
      more: await box('[aria-controls="status-menu"]'),
      macros: await box('[aria-controls="macro-menu"]'),
      details: await box("details", details),
    };
    // One line: every control shares the Resolve button's top, lies within the title's height and to
    // its right, and ends inside the header (nothing pushed out of sight).
    for (const [name, b] of Object.entries(controls)) {
      expect({ name, top: b.y }).toEqual({ name, top: controls.resolve.y });
      expect(b.y).toBeGreaterThanOrEqual(title.y - 1);
      expect(b.y + b.height).toBeLessThanOrEqual(title.y + title.height + 1);
      expect(b.x).toBeGreaterThanOrEqual(title.x + title.width);
      expect(b.x + b.width).toBeLessThanOrEqual(header.x + header.width);
    }
    expect(await page.locator(".thread-header").evaluate((h) => h.scrollWidth <= h.clientWidth)).toBe(true);
    // The title keeps its whole name and line on screen (wrapped if need be, never cut).
    expect(
      await page.locator(".thread-title").evaluate((t) => t.scrollWidth <= t.clientWidth && t.clientWidth > 0),
    ).toBe(true);
  }, 60_000);
});

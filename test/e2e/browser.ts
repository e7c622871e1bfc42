// Shared by the browser tests: a real server listening on a free port in this process, Debian's
// chromium driven by playwright-core, sign-in, screenshots, and a watch for page errors, console
// errors and requests that leave the server (the app must work offline, with no CDN).
import { afterAll, afterEach, beforeAll, expect } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createDeps, type Deps } from "../../src/deps.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { webAssets } from "../../src/http/web-assets.ts";
import type { Clock } from "../../src/lib/clock.ts";
import { ensureFirstAccount, type FirstRun } from "../../src/server.ts";

export const CHROMIUM = "/usr/bin/chromium";
export const SHOTS = join(import.meta.dir, "screenshots");
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const haveChromium = existsSync(CHROMIUM);

export interface WebServer {
  deps: Deps;
  base: string;
  first: FirstRun;
  stop(): Promise<void>;
}

/**
 * env: PARLEY_* settings for this server (e.g. PARLEY_ALLOW_PRIVATE_WEBHOOKS=1 to deliver to a local
 * receiver); clock: the server's time (the system's unless told).
 */
export async function startWebServer(env: Record<string, string> = {}, clock?: Clock): Promise<WebServer> {
  const db = openDatabase(":memory:");
  migrate(db);
  const deps = createDeps({
    db,
    config: loadConfig({ db: ":memory:" }, env),
    logger: createLogger("silent"),
    groupCommit: true,
    clock,
  });
  const first = (await ensureFirstAccount(deps))!;
  const app = createApp(deps).listen({ port: 0, hostname: "127.0.0.1" });
  const stop = async () => {
    deps.realtime.shutdown(); // open sockets would keep a graceful stop waiting
    await app.stop(true);
  };
  return { deps, first, base: `http://127.0.0.1:${app.server!.port}`, stop };
}

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Chromium> {
  mkdirSync(SHOTS, { recursive: true });
  await webAssets(); // bundle src/web once, before the first page load is timed
  const profileDir = mkdtempSync(join(tmpdir(), "parley-chromium-"));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

// Chromium logs every 401/403/404/422/429 answer as a console error; those are expected (signed out,
// wrong password, a stale CSRF token that the app then refreshes, a refused change or upload shown on
// screen, mail asked of a server that has no mail server).
const EXPECTED = /^Failed to load resource: the server responded with a status of (401|403|404|413|422|429|503)/;

/**
 * A fresh page (cookies cleared) whose errors and outside requests land in `problems`; `elsewhere`
 * names other origins the test itself serves (a dashboard app's page in a frame).
 */
export async function openPage(
  context: BrowserContext,
  base: () => string,
  problems: string[],
  width = 1280,
  height = 800,
  elsewhere: () => string[] = () => [],
): Promise<Page> {
  await context.clearCookies();
  const page = await context.newPage();
  await page.setViewportSize({ width, height });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on(
    "console",
    (m) => void (m.type() === "error" && !EXPECTED.test(m.text()) && problems.push(`console: ${m.text()}`)),
  );
  page.on(
    "request",
    (r) =>
      void (
        ![base(), ...elsewhere()].some((origin) => r.url().startsWith(origin)) &&
        problems.push(`request outside the server: ${r.url()}`)
      ),
  );
  return page;
}

export async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/app`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

/** Waits until the element's aria-expanded says `value` (signals re-render on the next animation frame). */
export const expanded = (page: Page, selector: string, value: boolean) =>
  page.locator(`${selector}[aria-expanded="${value}"]`).waitFor();

/** An agent of the first account with a password, for signing in. */
export async function addAgent(
  server: WebServer,
  name: string,
  email: string,
  password: string,
  role: "agent" | "administrator" = "agent",
): Promise<number> {
  const s = server.deps.services;
  const id = await server.deps.writeTx(() => s.accounts.findOrCreateUser(name, email, 0));
  await s.accounts.addMember(server.first.account_id, id, role);
  await s.passwords.set(id, password);
  return id;
}

export { until } from "../helpers/until.ts";

export interface Suite {
  /** The server the pages talk to (a test may put another in its place for a while). */
  server: WebServer;
  openPage(width?: number, height?: number): Promise<Page>;
  /** Signs in as the first administrator unless told otherwise. */
  signIn(page: Page, email?: string, password?: string): Promise<void>;
}

/**
 * Inside a describe: one server and one chromium for the file. After each test its pages close, and
 * no page may have had an error, a console error or a request outside the server.
 */
export function browserSuite(
  opts: {
    env?: Record<string, string>;
    /** The server's time, for a test that needs records some minutes apart (never earlier than the system's). */
    clock?: Clock;
    setup?: (server: WebServer) => Promise<void>;
    /** Origins besides the server's that pages may load from (served by the test, e.g. a dashboard app). */
    elsewhere?: () => string[];
  } = {},
): Suite {
  let browser: Chromium;
  let problems: string[] = [];
  const suite: Suite = {
    server: undefined as unknown as WebServer,
    openPage: (width, height) =>
      openPage(browser.context, () => suite.server.base, problems, width, height, opts.elsewhere),
    signIn: (page, email = suite.server.first.email, password = suite.server.first.password) =>
      signIn(page, suite.server.base, email, password),
  };
  beforeAll(async () => {
    suite.server = await startWebServer(opts.env, opts.clock);
    await opts.setup?.(suite.server);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await suite.server?.stop();
  });
  afterEach(async () => {
    for (const page of browser.context.pages()) await page.close();
    const seen = problems;
    problems = [];
    expect(seen).toEqual([]);
  });
  return suite;
}

/** Waits until the element with this id has focus (screens move focus in an effect, a frame after they render). */
export const focusedId = (page: Page, id: string) =>
  page.waitForFunction((want) => document.activeElement?.id === want, id, { timeout: 5000 });

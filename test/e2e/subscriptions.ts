// What a page's socket asked for and was confirmed, seen from the browser's side: a test that
// makes something happen for the page to hear waits until its subscription is confirmed, since a
// frame sent before that reaches nobody (the page's first load read what came before).
import type { Page, WebSocket as PageSocket } from "playwright-core";
import { until } from "../helpers/until.ts";

export interface Subscriptions {
  /** The `since` of every subscription the page asked for (null: none), in order. */
  since: (number | null)[];
  /** How many the server confirmed. */
  confirmed: number;
}

/** Starts recording; call it before the page opens its socket. */
export function recordSubscriptions(page: Page): Subscriptions {
  const seen: Subscriptions = { since: [], confirmed: 0 };
  page.on("websocket", (ws: PageSocket) => {
    ws.on("framesent", (f) => {
      const frame = JSON.parse(String(f.payload)) as { command?: string; identifier?: string };
      if (frame.command === "subscribe")
        seen.since.push((JSON.parse(frame.identifier!) as { since?: number }).since ?? null);
    });
    ws.on(
      "framereceived",
      (f) => void (String(f.payload).includes('"type":"confirm_subscription"') && seen.confirmed++),
    );
  });
  return seen;
}

/** The page's subscription number n is confirmed: events from now on reach it. */
export const subscribed = (s: Subscriptions, n: number) => until(() => s.confirmed >= n);

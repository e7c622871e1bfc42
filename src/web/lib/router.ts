// Client-side routing under /app: the server answers the same page for every /app/* path, and
// this keeps the path in a signal, so components re-render when it changes.
import { signal } from "@preact/signals";

export const currentPath = signal(typeof location === "undefined" ? "/app" : location.pathname);
/** The query string ("" or "?…"): the inbox keeps its filters there. */
export const currentSearch = signal(typeof location === "undefined" ? "" : location.search);

/** Whether the last change of path came from the app (not the first load): pages then take focus. */
export const navigated = signal(false);

const INBOX_PATH = /^\/app\/accounts\/(\d+)\/(?:dashboard|conversations)(?:\/|$)/;

/** The account whose inbox `path` is, or null for any other screen. */
const inboxAccount = (path: string) => INBOX_PATH.exec(path)?.[1] ?? null;

/** The inbox's query string when the app last left it, so coming back shows the same list. */
let left: { account: string; search: string } | null = null;

/**
 * Goes to `to`. A move to one of the inbox's paths (the list, a conversation) keeps the list's
 * filters, which live in the query string, unless `to` brings its own: from inside the same
 * account's inbox the current ones, from another screen the ones it had when the app left it.
 * Filters belong to an account (its inboxes, teams, labels): another account's inbox starts afresh.
 */
export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  const from = inboxAccount(location.pathname);
  if (from !== null) left = { account: from, search: location.search };
  const account = to.includes("?") ? null : inboxAccount(to);
  const target = account !== null && left?.account === account ? to + left.search : to;
  if (target === location.pathname + location.search) return;
  history[opts.replace ? "replaceState" : "pushState"](null, "", target);
  navigated.value = !opts.replace || navigated.value;
  currentPath.value = location.pathname;
  currentSearch.value = location.search;
}

/** Rewrites the query string of the current entry (no new history entry, no navigation). */
export function replaceSearch(search: string): void {
  if (search === location.search) return;
  history.replaceState(null, "", location.pathname + search);
  currentSearch.value = location.search;
}

export function startRouter(): void {
  window.addEventListener("popstate", () => {
    navigated.value = true;
    currentPath.value = location.pathname;
    currentSearch.value = location.search;
  });
}

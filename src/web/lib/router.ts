// Client-side routing under /app: the server answers the same page for every /app/* path, and
// this keeps the path in a signal, so components re-render when it changes.
import { signal } from "@preact/signals";

export const currentPath = signal(typeof location === "undefined" ? "/app" : location.pathname);

/** Whether the last change of path came from the app (not the first load): pages then take focus. */
export const navigated = signal(false);

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (to === location.pathname) return;
  history[opts.replace ? "replaceState" : "pushState"](null, "", to);
  navigated.value = !opts.replace || navigated.value;
  currentPath.value = to;
}

export function startRouter(): void {
  window.addEventListener("popstate", () => {
    navigated.value = true;
    currentPath.value = location.pathname;
  });
}

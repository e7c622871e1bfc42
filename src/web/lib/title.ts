// The tab's title: the screen's own ("Conversations · Parley"), after the number of unread
// notifications when there are any ("(3) Conversations · Parley"), so a tab in the background says
// that something waits.
import { effect, signal } from "@preact/signals";

export const screenTitle = signal("Parley");
export const unreadNotifications = signal(0);

export function startTitle(): void {
  effect(() => {
    const n = unreadNotifications.value;
    document.title = n > 0 ? `(${n}) ${screenTitle.value}` : screenTitle.value;
  });
}

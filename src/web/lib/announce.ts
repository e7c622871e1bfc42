// A polite message for screen readers about what a keyboard shortcut did (the screen shows it too,
// but somewhere the focus is not).
import { signal } from "@preact/signals";

export const announcement = signal("");

export function announce(text: string): void {
  // Cleared first, so that the same text said twice is read twice.
  announcement.value = "";
  requestAnimationFrame(() => (announcement.value = text));
}

// The inbox's keyboard shortcuts. One list feeds both the key handler and the help dialog, so the
// dialog cannot drift from what the keys do. None fires while the user types in a field, or with
// Ctrl/Meta held (the browser's own shortcuts).
import type { Key } from "./i18n.ts";

export type ShortcutAction = "next" | "previous" | "reply" | "note" | "resolve" | "help";

export interface Shortcut {
  action: ShortcutAction;
  keys: string[];
  /** The key of its description in the translation table. */
  description: Key;
}

export const SHORTCUTS: Shortcut[] = [
  { action: "next", keys: ["j", "Alt+↓"], description: "shortcuts.next" },
  { action: "previous", keys: ["k", "Alt+↑"], description: "shortcuts.previous" },
  { action: "reply", keys: ["r"], description: "shortcuts.reply" },
  { action: "note", keys: ["p"], description: "shortcuts.note" },
  { action: "resolve", keys: ["e"], description: "shortcuts.resolve" },
  { action: "help", keys: ["?"], description: "shortcuts.help" },
];

/** Where typed keys are text: inputs, text areas, selects, editable content. */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as Element | null;
  if (!el || typeof el.matches !== "function") return false;
  return el.matches("input, textarea, select") || el.closest("[contenteditable=''], [contenteditable='true']") !== null;
}

export interface KeyLike {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  target: EventTarget | null;
}

export function shortcutOf(e: KeyLike): ShortcutAction | null {
  if (e.ctrlKey || e.metaKey || isTyping(e.target)) return null;
  if (e.altKey) return e.key === "ArrowDown" ? "next" : e.key === "ArrowUp" ? "previous" : null;
  switch (e.key) {
    case "j":
      return "next";
    case "k":
      return "previous";
    case "r":
      return "reply";
    case "p":
      return "note";
    case "e":
      return "resolve";
    case "?":
      return "help";
    default:
      return null;
  }
}

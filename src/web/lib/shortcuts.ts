// The inbox's keyboard shortcuts. One list feeds both the key handler and the help dialog, so the
// dialog cannot drift from what the keys do. None fires while the user types in a field, or with
// Ctrl/Meta held (the browser's own shortcuts).

export type ShortcutAction = "next" | "previous" | "reply" | "note" | "resolve" | "help";

export interface Shortcut {
  action: ShortcutAction;
  keys: string[];
  description: string;
}

export const SHORTCUTS: Shortcut[] = [
  { action: "next", keys: ["j", "Alt+↓"], description: "Next conversation" },
  { action: "previous", keys: ["k", "Alt+↑"], description: "Previous conversation" },
  { action: "reply", keys: ["r"], description: "Write a reply" },
  { action: "note", keys: ["p"], description: "Write a private note" },
  { action: "resolve", keys: ["e"], description: "Resolve the conversation (reopen a resolved one)" },
  { action: "help", keys: ["?"], description: "Show these shortcuts" },
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

// A small emoji picker beside the reply box: the emojis support chats use most, as buttons in a
// popup (Tab and arrow keys move; a pick returns to the text, Escape to the picker's button). No package and no images:
// the system's emoji font draws them, and the operating system's own picker still works in the box.
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { t } from "../../lib/i18n.ts";

export const EMOJIS = [
  ["😀", "grinning"],
  ["😊", "smiling"],
  ["🙂", "slightly smiling"],
  ["😉", "winking"],
  ["😍", "heart eyes"],
  ["🤗", "hugging"],
  ["🤔", "thinking"],
  ["😅", "sweat smile"],
  ["😂", "tears of joy"],
  ["😢", "crying"],
  ["😮", "surprised"],
  ["😴", "sleeping"],
  ["🙏", "folded hands"],
  ["👍", "thumbs up"],
  ["👎", "thumbs down"],
  ["👏", "clapping"],
  ["👋", "waving"],
  ["💪", "flexed biceps"],
  ["🎉", "party popper"],
  ["✅", "check mark"],
  ["❌", "cross mark"],
  ["⚠️", "warning"],
  ["❓", "question mark"],
  ["💡", "light bulb"],
  ["❤️", "red heart"],
  ["⭐", "star"],
  ["🔥", "fire"],
  ["🚀", "rocket"],
  ["📦", "package"],
  ["🚚", "delivery truck"],
  ["💳", "credit card"],
  ["📧", "email"],
  ["📞", "telephone"],
  ["🕐", "clock"],
  ["📅", "calendar"],
  ["🔒", "lock"],
] as const;

interface Props {
  onPick(emoji: string): void;
}

export function EmojiPicker({ onPick }: Props) {
  const open = useSignal(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open.value) grid.current?.querySelector("button")?.focus();
  }, [open.value]);
  const close = () => {
    open.value = false;
    toggle.current?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const buttons = [...(grid.current?.querySelectorAll("button") ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 6, ArrowUp: -6 }[e.key];
    if (e.key === "Escape") close();
    else if (step !== undefined && at >= 0) buttons[Math.min(buttons.length - 1, Math.max(0, at + step))]?.focus();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    // Keys on the whole picker: Escape works from its button too, before focus reaches the grid.
    <div class="emoji-picker" onKeyDown={(e) => open.value && onKeyDown(e)}>
      <button
        type="button"
        ref={toggle}
        class="small"
        aria-expanded={open.value}
        aria-controls="emoji-grid"
        onClick={() => (open.value = !open.value)}
      >
        <span aria-hidden="true">🙂</span>
        <span class="visually-hidden">{t("emoji.insert")}</span>
      </button>
      {open.value && (
        <div id="emoji-grid" ref={grid} class="emoji-grid" role="group" aria-label={t("emoji.label")}>
          {EMOJIS.map(([emoji, name]) => (
            <button
              key={name}
              type="button"
              aria-label={name}
              title={name}
              onClick={() => ((open.value = false), onPick(emoji))}
            >
              {emoji}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

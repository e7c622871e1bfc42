// A button that shows and hides a panel below it (the WAI-ARIA disclosure pattern): Escape gives
// focus back to the button and closes it; so do tabbing out of it, a click outside it, and moving
// to another page.
import { useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { currentPath } from "../lib/router.ts";

interface Props {
  id: string;
  class: string;
  button: ComponentChildren;
  /** The button's accessible name, when its visible content does not say enough. */
  label?: string;
  /** A menu of actions: choosing one (a button in the panel) closes it and gives focus back to its button. */
  closeOnChoice?: boolean;
  children: ComponentChildren;
}

export function Disclosure({ id, class: className, button, label, closeOnChoice, children }: Props) {
  const open = useSignal(false);
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const path = currentPath.value;
  useEffect(() => void (open.value = false), [path]);
  useEffect(() => {
    if (!open.value) return;
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) open.value = false;
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open.value]);
  // Handled on the element itself (not in an effect) so a fast Escape right after opening works.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== "Escape" || !open.value) return;
    open.value = false;
    toggle.current?.focus();
  };
  const onFocusOut = (e: FocusEvent) => {
    const next = e.relatedTarget as Node | null;
    if (next && !root.current?.contains(next)) open.value = false;
  };
  const onPanelClick = (e: MouseEvent) => {
    if (!closeOnChoice || !(e.target as Element).closest("button")) return;
    open.value = false;
    toggle.current?.focus();
  };
  return (
    <div class={className} ref={root} onKeyDown={onKeyDown} onFocusOut={onFocusOut}>
      <button
        type="button"
        ref={toggle}
        class="disclosure-button"
        aria-label={label}
        aria-expanded={open.value}
        aria-controls={id}
        onClick={() => (open.value = !open.value)}
      >
        {button}
        <span class="caret" aria-hidden="true">
          ▾
        </span>
      </button>
      <div id={id} class="disclosure-panel" hidden={!open.value} onClick={onPanelClick}>
        {children}
      </div>
    </div>
  );
}

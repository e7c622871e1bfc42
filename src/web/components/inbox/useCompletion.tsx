// A completion list under the reply box (the listbox half of the ARIA combobox pattern): typing the
// trigger opens it with the matching items, ↑/↓ move, Enter or Tab takes one, Escape closes it;
// a click takes one too. The caller gives the items and what choosing one inserts.
import { useSignal, type Signal } from "@preact/signals";
import { useRef } from "preact/hooks";
import type { JSX, TextareaHTMLAttributes } from "preact";
import { activeQuery, applyChoice, matching, type Active } from "../../lib/completion.ts";

export interface CompletionOptions<T> {
  /** The id prefix of the list and its options. */
  id: string;
  trigger: string;
  lineStart?: boolean;
  /** null: this completion is off now (e.g. mentions outside a private note). */
  items: () => readonly T[] | null;
  name(item: T): string;
  /** What the list shows for an item (default: its name). */
  describe?(item: T): string;
  insert(item: T): string;
  chosen?(item: T): void;
  text: Signal<string>;
}

export interface Completion {
  /** Call on input, click and caret keys: finds the completion being typed. */
  refresh(el: HTMLTextAreaElement): void;
  /** Call first on keydown; true when the key was the list's. */
  onKeyDown(e: KeyboardEvent): boolean;
  /** Attributes for the text box. */
  boxProps: TextareaHTMLAttributes<HTMLTextAreaElement>;
  list: JSX.Element | null;
}

export function useCompletion<T>(o: CompletionOptions<T>): Completion {
  const box = useRef<HTMLTextAreaElement | null>(null);
  const active = useSignal<Active | null>(null);
  const caret = useSignal(0);
  const index = useSignal(0);
  const all = o.items();
  const options = active.value && all ? matching(all, o.name, active.value.query) : [];
  const open = options.length > 0;
  const selected = Math.min(index.value, options.length - 1);

  const refresh = (el: HTMLTextAreaElement) => {
    box.current = el;
    const next = all ? activeQuery(el.value, el.selectionStart, o.trigger, o.lineStart) : null;
    if (next?.start !== active.value?.start || next?.query !== active.value?.query) index.value = 0;
    active.value = next;
    caret.value = el.selectionStart;
  };

  const choose = (item: T) => {
    const el = box.current;
    const a = active.value;
    if (!a) return;
    const { text, caret: at } = applyChoice(o.text.value, a, caret.value, o.insert(item));
    o.text.value = text;
    o.chosen?.(item);
    active.value = null;
    if (el) {
      el.value = text;
      el.focus();
      el.setSelectionRange(at, at);
    }
  };

  const onKeyDown = (e: KeyboardEvent): boolean => {
    if (!open) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp")
      index.value = (selected + (e.key === "ArrowDown" ? 1 : options.length - 1)) % options.length;
    else if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") choose(options[selected]!);
    else if (e.key === "Escape") active.value = null;
    else return false;
    e.preventDefault();
    return true;
  };

  const optionId = (i: number) => `${o.id}-option-${i}`;
  return {
    refresh,
    onKeyDown,
    boxProps: {
      "aria-autocomplete": "list",
      "aria-expanded": open,
      "aria-controls": open ? `${o.id}-list` : undefined,
      "aria-activedescendant": open ? optionId(selected) : undefined,
    },
    list: open ? (
      <ul id={`${o.id}-list`} class="completion-list" role="listbox">
        {options.map((item, i) => (
          <li
            key={o.name(item)}
            id={optionId(i)}
            role="option"
            aria-selected={i === selected}
            // mousedown, not click: the box must not lose focus (and close the list) first.
            onMouseDown={(e) => (e.preventDefault(), choose(item))}
          >
            {(o.describe ?? o.name)(item)}
          </li>
        ))}
      </ul>
    ) : null,
  };
}

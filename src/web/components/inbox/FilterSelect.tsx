// One of the list's filters: a select with a label for screen readers (the options say what it is).
import type { ComponentChildren } from "preact";

interface Props {
  id: string;
  label: string;
  value: string | number;
  onChange(value: string): void;
  disabled?: boolean;
  title?: string | undefined;
  class?: string;
  children: ComponentChildren;
}

export function FilterSelect({ id, label, value, onChange, disabled, title, class: className, children }: Props) {
  return (
    <div class={className}>
      <label for={id} class="visually-hidden">
        {label}
      </label>
      <select id={id} value={value} disabled={disabled} title={title} onChange={(e) => onChange(e.currentTarget.value)}>
        {children}
      </select>
    </div>
  );
}

// A secret, hidden until asked for (over-the-shoulder safety), then selectable to copy.
import { useSignal } from "@preact/signals";

export function Secret({ value, label }: { value: string; label: string }) {
  const shown = useSignal(false);
  return (
    <span class="secret">
      <code aria-label={shown.value ? undefined : `${label}, hidden`}>{shown.value ? value : "•".repeat(16)}</code>
      <button type="button" class="small" aria-pressed={shown.value} onClick={() => (shown.value = !shown.value)}>
        {shown.value ? "Hide" : "Show"}
        <span class="visually-hidden"> {label}</span>
      </button>
    </span>
  );
}

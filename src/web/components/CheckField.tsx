// A labelled checkbox bound to a signal, with the server's message for it when it refused the value.
import type { Signal } from "@preact/signals";

export function CheckField({
  id,
  label,
  value,
  error,
}: {
  id: string;
  label: string;
  value: Signal<boolean>;
  error?: string | undefined;
}) {
  return (
    <div class={error ? "field invalid" : "field"}>
      <label class="check">
        <input
          type="checkbox"
          id={id}
          checked={value.value}
          aria-invalid={error ? "true" : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => (value.value = e.currentTarget.checked)}
        />
        <span>{label}</span>
      </label>
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

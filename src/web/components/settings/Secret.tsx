// A secret, hidden until asked for (over-the-shoulder safety), then selectable to copy.
import { useSignal } from "@preact/signals";
import { t } from "../../lib/i18n.ts";

export function Secret({ value, label }: { value: string; label: string }) {
  const shown = useSignal(false);
  return (
    <span class="secret">
      <code aria-label={shown.value ? undefined : t("secret.hidden", { label })}>
        {shown.value ? value : "•".repeat(16)}
      </code>
      <button type="button" class="small" aria-pressed={shown.value} onClick={() => (shown.value = !shown.value)}>
        {shown.value ? t("secret.hide") : t("secret.show")}
        <span class="visually-hidden"> {label}</span>
      </button>
    </span>
  );
}

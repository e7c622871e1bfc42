// A button for something that cannot be undone: the first press asks, in place, for a second one.
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { t } from "../lib/i18n.ts";

interface Props {
  label: string;
  /** Whom or what it acts on, when a list has many such buttons: "Remove" becomes "Remove Finn" to screen readers. */
  target?: string;
  /** What the question says, e.g. "Remove Bea from the account?" */
  question: string;
  confirmLabel?: string;
  onConfirm(): Promise<void> | void;
}

export function ConfirmButton({ label, target, question, confirmLabel = label, onConfirm }: Props) {
  const asking = useSignal(false);
  const busy = useSignal(false);
  const yes = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking.value) yes.current?.focus();
    else if (wasAsking.current) first.current?.focus();
    wasAsking.current = asking.value;
  }, [asking.value]);
  const confirm = async () => {
    if (busy.value) return;
    busy.value = true;
    try {
      await onConfirm();
    } finally {
      busy.value = false;
      asking.value = false;
    }
  };
  if (!asking.value) {
    return (
      <button
        type="button"
        class="danger-link"
        ref={first}
        aria-label={target ? `${label} ${target}` : undefined}
        onClick={() => (asking.value = true)}
      >
        {label}
      </button>
    );
  }
  return (
    <span class="confirm" role="group" aria-label={question}>
      <span class="confirm-question">{question}</span>
      <button
        type="button"
        class="danger"
        ref={yes}
        onClick={() => void confirm()}
        aria-disabled={busy.value ? "true" : undefined}
      >
        {confirmLabel}
      </button>
      <button type="button" onClick={() => (asking.value = false)}>
        {t("common.cancel")}
      </button>
    </span>
  );
}

// A form's submit button that says when it is working. aria-disabled (not disabled) keeps it
// focusable while busy; the form's own guard ignores a second press.
export function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button type="submit" class="primary" aria-disabled={busy ? "true" : undefined}>
      {busy ? busyLabel : label}
    </button>
  );
}

// The list of keyboard shortcuts, in a modal dialog (the browser's <dialog>: it keeps focus inside,
// Escape closes it, and focus returns to where it was).
import type { Signal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { SHORTCUTS } from "../../lib/shortcuts.ts";
import { TableHead } from "../TableHead.tsx";
import { t } from "../../lib/i18n.ts";

export function ShortcutsDialog({ open }: { open: Signal<boolean> }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open.value && !d.open) d.showModal();
    if (!open.value && d.open) d.close();
  }, [open.value]);
  return (
    <dialog
      ref={dialog}
      class="shortcuts-dialog"
      aria-labelledby="shortcuts-title"
      onClose={() => (open.value = false)}
    >
      <h2 id="shortcuts-title">{t("shortcuts.title")}</h2>
      <p class="hint">{t("shortcuts.hint")}</p>
      <table>
        <TableHead columns={[t("shortcuts.keys"), t("shortcuts.action")]} />
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.action}>
              <td>
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && t("shortcuts.or")}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </td>
              <td>{t(s.description)}</td>
            </tr>
          ))}
          <tr>
            <td>
              <kbd>Enter</kbd> / <kbd>Shift+Enter</kbd>
            </td>
            <td>{t("shortcuts.reply_box")}</td>
          </tr>
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit" class="primary">
          {t("common.close")}
        </button>
      </form>
    </dialog>
  );
}

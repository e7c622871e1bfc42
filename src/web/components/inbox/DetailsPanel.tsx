// The open conversation's side panel: its assignment, priority and labels, then its contact. Beside
// the thread on wide screens; in its place on narrower ones, with a button back.
import type { Signal } from "@preact/signals";
import { thread } from "../../lib/thread.ts";
import { ContactPanel } from "./ContactPanel.tsx";
import { ConversationDetails } from "./ConversationDetails.tsx";
import { t } from "../../lib/i18n.ts";

export function DetailsPanel({ accountId, open }: { accountId: number; open: Signal<boolean> }) {
  const c = thread.value?.conversation;
  if (!c) return null;
  const close = () => {
    open.value = false;
    document.querySelector<HTMLElement>(".details-toggle")?.focus();
  };
  return (
    <aside id="details-panel" class="details-pane" aria-label={t("details.label")} hidden={!open.value}>
      <div class="details-head">
        <h2>{t("details.title")}</h2>
        <button type="button" class="details-close" onClick={close}>
          {t("details.back")}
        </button>
      </div>
      <ConversationDetails accountId={accountId} conversation={c} />
      <ContactPanel accountId={accountId} contactId={c.meta.sender.id} conversationId={c.id} />
    </aside>
  );
}

// The open conversation's side panel: its assignment, priority and labels, then its contact. Beside
// the thread on wide screens; in its place on narrower ones, with a button back.
import type { Signal } from "@preact/signals";
import { thread } from "../../lib/thread.ts";
import { ContactPanel } from "./ContactPanel.tsx";
import { ConversationDetails } from "./ConversationDetails.tsx";

export function DetailsPanel({ accountId, open }: { accountId: number; open: Signal<boolean> }) {
  const c = thread.value?.conversation;
  if (!c) return null;
  const close = () => {
    open.value = false;
    document.querySelector<HTMLElement>(".details-toggle")?.focus();
  };
  return (
    <aside id="details-panel" class="details-pane" aria-label="Conversation details" hidden={!open.value}>
      <div class="details-head">
        <h2>Details</h2>
        <button type="button" class="details-close" onClick={close}>
          Back to the conversation
        </button>
      </div>
      <ConversationDetails accountId={accountId} conversation={c} />
      <ContactPanel accountId={accountId} contactId={c.meta.sender.id} conversationId={c.id} />
    </aside>
  );
}

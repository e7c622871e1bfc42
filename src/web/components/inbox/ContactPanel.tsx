// The contact of the open conversation: details, an edit form, and their other conversations.
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { api } from "../../lib/api.ts";
import { describeError } from "../../lib/thread.ts";
import type { Contact } from "../../lib/types.ts";
import { ContactConversations } from "./ContactConversations.tsx";
import { ContactDetails } from "./ContactDetails.tsx";
import { ContactForm } from "./ContactForm.tsx";
import { t } from "../../lib/i18n.ts";

interface Props {
  accountId: number;
  contactId: number;
  conversationId: number;
}

export function ContactPanel({ accountId, contactId, conversationId }: Props) {
  const contact = useSignal<Contact | null>(null);
  const error = useSignal<string | null>(null);
  const editing = useSignal(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  // Leaving the form (saved or cancelled) gives focus back to the button that opened it.
  useEffect(() => {
    if (wasEditing.current && !editing.value) editButton.current?.focus();
    wasEditing.current = editing.value;
  }, [editing.value]);
  useEffect(() => {
    contact.value = null;
    editing.value = false;
    api<{ payload: Contact }>("GET", `/api/v1/accounts/${accountId}/contacts/${contactId}`).then(
      (r) => (contact.value = r.payload),
      (e) => (error.value = describeError(e, t("contact.load_failed"))),
    );
  }, [accountId, contactId]);

  const c = contact.value;
  return (
    <section class="details-section contact-panel" aria-labelledby="contact-title">
      <h3 id="contact-title">{t("contact.title")}</h3>
      {error.value && <p role="alert">{error.value}</p>}
      {!c && !error.value && <p role="status">{t("contact.loading")}</p>}
      {c && editing.value && (
        <ContactForm
          accountId={accountId}
          contact={c}
          onSaved={(saved) => ((contact.value = saved), (editing.value = false))}
          onCancel={() => (editing.value = false)}
        />
      )}
      {c && !editing.value && (
        <>
          <p class="contact-name">{c.name || t("item.unknown")}</p>
          <ContactDetails contact={c} />
          <button type="button" ref={editButton} onClick={() => (editing.value = true)}>
            {t("contact.edit")}
          </button>
        </>
      )}
      <ContactConversations accountId={accountId} contactId={contactId} currentId={conversationId} />
    </section>
  );
}

// The contact of the open conversation: details, an edit form, and their other conversations.
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { api } from "../../lib/api.ts";
import { attributeText } from "../../lib/custom-attributes.ts";
import { dateTime, longAge } from "../../lib/format.ts";
import { describeError } from "../../lib/thread.ts";
import type { Contact } from "../../lib/types.ts";
import { ContactConversations } from "./ContactConversations.tsx";
import { ContactForm } from "./ContactForm.tsx";

function Detail({ term, value }: { term: string; value: unknown }) {
  if (value === null || value === undefined || value === "") return null;
  return (
    <>
      <dt>{term}</dt>
      <dd>{String(value)}</dd>
    </>
  );
}

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
      (e) => (error.value = describeError(e, "The contact could not be loaded.")),
    );
  }, [accountId, contactId]);

  const c = contact.value;
  const attrs = c?.additional_attributes ?? {};
  const location = [attrs["city"], attrs["country"]].filter((x) => typeof x === "string" && x).join(", ");
  return (
    <section class="details-section contact-panel" aria-labelledby="contact-title">
      <h3 id="contact-title">Contact</h3>
      {error.value && <p role="alert">{error.value}</p>}
      {!c && !error.value && <p role="status">Loading the contact…</p>}
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
          <p class="contact-name">{c.name || "Unknown contact"}</p>
          <dl class="contact-details">
            <Detail term="Email" value={c.email} />
            <Detail term="Phone" value={c.phone_number} />
            <Detail term="Identifier" value={c.identifier} />
            <Detail term="Company" value={attrs["company_name"]} />
            <Detail term="Location" value={location} />
            <Detail term="Inboxes" value={[...new Set(c.contact_inboxes?.map((ci) => ci.inbox.name))].join(", ")} />
            <Detail term="Last active" value={c.last_activity_at ? longAge(c.last_activity_at) : null} />
            <Detail term="Created" value={dateTime(c.created_at)} />
            {c.blocked && <Detail term="Blocked" value="Yes: new messages are resolved at once" />}
          </dl>
          {Object.keys(c.custom_attributes).length > 0 && (
            <dl class="contact-details" aria-label="Custom attributes">
              {Object.entries(c.custom_attributes).map(([key, value]) => (
                <Detail key={key} term={key} value={attributeText(value)} />
              ))}
            </dl>
          )}
          <button type="button" ref={editButton} onClick={() => (editing.value = true)}>
            Edit contact
          </button>
        </>
      )}
      <ContactConversations accountId={accountId} contactId={contactId} currentId={conversationId} />
    </section>
  );
}

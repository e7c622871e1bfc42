// One contact: details and custom attributes (editable), labels, notes, their conversations,
// merging a duplicate into them, and for administrators deleting them.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { paths } from "../../lib/routes.ts";
import type { AccountMembership } from "../../lib/session.ts";
import type { Contact } from "../../lib/types.ts";
import { useResource } from "../../lib/use-resource.ts";
import { Link } from "../Link.tsx";
import { Page } from "../Page.tsx";
import { ContactConversations } from "../inbox/ContactConversations.tsx";
import { ContactDetails } from "../inbox/ContactDetails.tsx";
import { ContactForm } from "../inbox/ContactForm.tsx";
import { DeleteCard } from "../settings/DeleteCard.tsx";
import { ContactLabels } from "./ContactLabels.tsx";
import { ContactMerge } from "./ContactMerge.tsx";
import { ContactNotes } from "./ContactNotes.tsx";

export function ContactPage({ account, contactId }: { account: AccountMembership; contactId: number }) {
  const url = `/api/v1/accounts/${account.id}/contacts/${contactId}`;
  const contact = useResource(async () => (await api<{ payload: Contact }>("GET", url)).payload, [url], "The contact");
  const editing = useSignal(false);
  // Bumped after a merge: the conversations list reloads with the merged contact's conversations.
  const merges = useSignal(0);
  const c = contact.data.value;
  return (
    <Page title={c ? c.name || "Unnamed contact" : "Contact"}>
      <p>
        <Link href={paths.contacts(account.id)}>← All contacts</Link>
      </p>
      {contact.error.value && <p role="alert">{contact.error.value}</p>}
      {!c && !contact.error.value && <p role="status">Loading the contact…</p>}
      {c && (
        <div class="settings-stack">
          <section class="settings-card contact-panel" aria-labelledby="contact-details-title">
            <h2 id="contact-details-title">Details</h2>
            {editing.value ? (
              <ContactForm
                accountId={account.id}
                contact={c}
                onSaved={(saved) => ((contact.data.value = saved), (editing.value = false))}
                onCancel={() => (editing.value = false)}
              />
            ) : (
              <>
                <ContactDetails contact={c} />
                <button type="button" onClick={() => (editing.value = true)}>
                  Edit contact
                </button>
              </>
            )}
          </section>
          <ContactLabels accountId={account.id} contactId={contactId} />
          <ContactNotes accountId={account.id} contactId={contactId} />
          <section class="settings-card">
            <ContactConversations key={merges.value} accountId={account.id} contactId={contactId} currentId={null} />
          </section>
          <ContactMerge accountId={account.id} contact={c} onMerged={() => (merges.value++, void contact.reload())} />
          {account.role === "administrator" && (
            <DeleteCard
              accountId={account.id}
              what="contact"
              name={c.name || "this contact"}
              consequence="Deleting a contact deletes their conversations and messages too. This cannot be undone."
              url={url}
              back={paths.contacts(account.id)}
            />
          )}
        </div>
      )}
    </Page>
  );
}

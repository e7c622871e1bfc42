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
import { t } from "../../lib/i18n.ts";

export function ContactPage({ account, contactId }: { account: AccountMembership; contactId: number }) {
  const url = `/api/v1/accounts/${account.id}/contacts/${contactId}`;
  const contact = useResource(
    async () => (await api<{ payload: Contact }>("GET", url)).payload,
    [url],
    t("contact_page.what"),
  );
  const editing = useSignal(false);
  // Bumped after a merge: the conversations list reloads with the merged contact's conversations.
  const merges = useSignal(0);
  const c = contact.data.value;
  return (
    <Page title={c ? c.name || t("contacts.unnamed") : t("contact_page.title")}>
      <p>
        <Link href={paths.contacts(account.id)}>{t("contact_page.all")}</Link>
      </p>
      {contact.error.value && <p role="alert">{contact.error.value}</p>}
      {!c && !contact.error.value && <p role="status">{t("contact.loading")}</p>}
      {c && (
        <div class="settings-stack">
          <section class="settings-card contact-panel" aria-labelledby="contact-details-title">
            <h2 id="contact-details-title">{t("contact_page.details")}</h2>
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
                  {t("contact.edit")}
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
              title={t("contact_page.delete_title")}
              label={t("contact_page.delete")}
              question={t("contact_page.delete_question", { name: c.name || t("contact_page.this") })}
              failed={t("contact_page.delete_failed")}
              consequence={t("contact_page.delete_consequence")}
              url={url}
              back={paths.contacts(account.id)}
            />
          )}
        </div>
      )}
    </Page>
  );
}

// The account's contacts: a search over name, email, phone number and identifier, filters by label
// and custom attribute (contacts/filter), a sort, 15 a page (the server's page), a form for a new
// contact, and for administrators CSV import and export.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../../lib/api.ts";
import { shortAge, dateTime } from "../../lib/format.ts";
import { navigate } from "../../lib/router.ts";
import { paths } from "../../lib/routes.ts";
import type { AccountMembership } from "../../lib/session.ts";
import type { Contact } from "../../lib/types.ts";
import { useResource } from "../../lib/use-resource.ts";
import { DataTable } from "../DataTable.tsx";
import { Link } from "../Link.tsx";
import { Page } from "../Page.tsx";
import { Pager } from "../Pager.tsx";
import { ContactForm } from "../inbox/ContactForm.tsx";
import { ContactFilters, filterPayload, isFiltering, NO_FILTER, type ContactFilter } from "./ContactFilters.tsx";
import { ContactTransfer } from "./ContactTransfer.tsx";
import { t, tn } from "../../lib/i18n.ts";

const PER_PAGE = 15;
const SORTS = [
  ["name", "contacts.sort.name"],
  ["-name", "contacts.sort.name_desc"],
  ["-last_activity_at", "contacts.sort.last_active"],
  ["-created_at", "contacts.sort.newest"],
  ["created_at", "contacts.sort.oldest"],
  ["email", "contacts.sort.email"],
] as const;

function countText(n: number, term: string): string {
  return term ? tn("contacts.matches", n, { term }) : tn("contacts.count", n);
}

interface ContactPage {
  meta: { count: number; current_page: string };
  payload: Contact[];
}

export function ContactsScreen({ account }: { account: AccountMembership }) {
  const typed = useSignal("");
  const term = useSignal("");
  const sort = useSignal("name");
  const page = useSignal(1);
  const adding = useSignal(false);
  const filter = useSignal<ContactFilter>(NO_FILTER);
  // Ask once typing pauses, not at every key.
  useEffect(() => {
    const timer = setTimeout(() => ((term.value = typed.value.trim()), (page.value = 1)), 300);
    return () => clearTimeout(timer);
  }, [typed.value]);
  const base = `/api/v1/accounts/${account.id}/contacts`;
  const query = `page=${page.value}&sort=${sort.value}&include_contact_inboxes=false`;
  const contacts = useResource(
    () =>
      isFiltering(filter.value)
        ? api<ContactPage>("POST", `${base}/filter?page=${page.value}`, {
            payload: filterPayload(filter.value, term.value),
          })
        : api<ContactPage>(
            "GET",
            term.value ? `${base}/search?q=${encodeURIComponent(term.value)}&${query}` : `${base}?${query}`,
          ),
    [account.id, term.value, sort.value, page.value, filter.value],
    t("contacts.what"),
  );
  const r = contacts.data.value;
  const pages = r ? Math.max(1, Math.ceil(r.meta.count / PER_PAGE)) : 1;
  return (
    <Page title={t("contacts.title")}>
      <div class="contacts-toolbar">
        <label for="contact-search" class="visually-hidden">
          {t("contacts.search")}
        </label>
        <input
          id="contact-search"
          type="search"
          placeholder={t("contacts.search_placeholder")}
          value={typed.value}
          onInput={(e) => (typed.value = e.currentTarget.value)}
        />
        <label for="contact-sort" class="visually-hidden">
          {t("contacts.sort")}
        </label>
        <select
          id="contact-sort"
          value={sort.value}
          onChange={(e) => ((sort.value = e.currentTarget.value), (page.value = 1))}
        >
          {SORTS.map(([value, label]) => (
            <option key={value} value={value}>
              {t(label)}
            </option>
          ))}
        </select>
        <button type="button" aria-expanded={adding.value} onClick={() => (adding.value = !adding.value)}>
          {t("contacts.new")}
        </button>
      </div>
      <ContactFilters filter={filter} onChange={() => (page.value = 1)} />
      {adding.value && (
        <section class="settings-card" aria-label={t("contacts.new")}>
          <ContactForm
            accountId={account.id}
            contact={null}
            onSaved={(c) => navigate(paths.contacts(account.id, c.id))}
            onCancel={() => (adding.value = false)}
          />
        </section>
      )}
      {account.role === "administrator" && (
        <ContactTransfer accountId={account.id} onImported={() => void contacts.reload()} />
      )}
      <p role="status" class="list-status">
        {r ? countText(r.meta.count, term.value) : contacts.error.value ? "" : t("contacts.loading")}
      </p>
      {contacts.error.value && <p role="alert">{contacts.error.value}</p>}
      {r && r.payload.length > 0 && (
        <DataTable
          columns={[
            t("contacts.col.name"),
            t("contacts.col.email"),
            t("contacts.col.phone"),
            t("contacts.col.company"),
            t("contacts.col.last_active"),
          ]}
          caption={t("contacts.title")}
        >
          {r.payload.map((c) => (
            <tr key={c.id}>
              <td>
                <Link href={paths.contacts(account.id, c.id)}>{c.name || t("contacts.unnamed")}</Link>
              </td>
              <td class="wrap">{c.email ?? "—"}</td>
              <td>{c.phone_number ?? "—"}</td>
              <td>{(c.additional_attributes.company_name as string | undefined) ?? "—"}</td>
              <td title={c.last_activity_at ? dateTime(c.last_activity_at) : undefined}>
                {c.last_activity_at ? shortAge(c.last_activity_at) : "—"}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pager page={page} pages={pages} label={t("contacts.pages")} />
    </Page>
  );
}

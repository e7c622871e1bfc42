// Merging a duplicate into this contact (Chatwoot's contact merge): find the other contact by name,
// email or phone, confirm, and its conversations, notes, labels and details move here; the other
// contact is deleted.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { describeError } from "../../lib/thread.ts";
import type { Contact } from "../../lib/types.ts";
import { t } from "../../lib/i18n.ts";

export function ContactMerge({
  accountId,
  contact,
  onMerged,
}: {
  accountId: number;
  contact: Contact;
  onMerged: () => void;
}) {
  const q = useSignal("");
  const found = useSignal<Contact[] | null>(null);
  const chosen = useSignal<Contact | null>(null);
  const message = useSignal<string | null>(null);
  const base = `/api/v1/accounts/${accountId}`;
  const search = async (e: Event) => {
    e.preventDefault();
    chosen.value = null;
    try {
      const r = await api<{ payload: Contact[] }>(
        "GET",
        `${base}/contacts/search?q=${encodeURIComponent(q.value.trim())}`,
      );
      found.value = r.payload.filter((c) => c.id !== contact.id);
      message.value = null;
    } catch (err) {
      message.value = describeError(err, t("merge.search_failed"));
    }
  };
  const merge = async () => {
    const other = chosen.value;
    if (!other) return;
    try {
      await api("POST", `${base}/actions/contact_merge`, { base_contact_id: contact.id, mergee_contact_id: other.id });
      message.value = t("merge.done", {
        other: other.name || t("merge.the_other"),
        contact: contact.name || t("contact_page.this"),
      });
      found.value = null;
      chosen.value = null;
      q.value = "";
      onMerged();
    } catch (err) {
      message.value = describeError(err, t("merge.failed"));
    }
  };
  return (
    <section class="settings-card" aria-labelledby="contact-merge-title">
      <h2 id="contact-merge-title">{t("merge.title")}</h2>
      <form onSubmit={search} role="search">
        <label for="merge-search">{t("merge.find_label")}</label>
        <input id="merge-search" type="search" value={q.value} onInput={(e) => (q.value = e.currentTarget.value)} />
        <button type="submit">{t("merge.find")}</button>
      </form>
      {found.value && found.value.length === 0 && <p class="hint">{t("merge.none")}</p>}
      {found.value && found.value.length > 0 && (
        <ul class="merge-candidates" aria-label={t("merge.found")}>
          {found.value.map((c) => (
            <li key={c.id}>
              <button type="button" aria-pressed={chosen.value?.id === c.id} onClick={() => (chosen.value = c)}>
                {c.name || t("merge.unnamed")} {c.email ? `· ${c.email}` : ""}{" "}
                {c.phone_number ? `· ${c.phone_number}` : ""}
              </button>
            </li>
          ))}
        </ul>
      )}
      {chosen.value && (
        <div role="group" aria-label={t("merge.confirm_label")}>
          <p>
            {t("merge.confirm", {
              other: chosen.value.name || t("merge.the_other_lower"),
              contact: contact.name || t("contact_page.this"),
            })}
          </p>
          <button type="button" class="danger" onClick={() => void merge()}>
            {t("merge.merge")}
          </button>
        </div>
      )}
      {message.value && <p role="status">{message.value}</p>}
    </section>
  );
}

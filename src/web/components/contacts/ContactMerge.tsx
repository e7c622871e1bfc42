// Merging a duplicate into this contact (Chatwoot's contact merge): find the other contact by name,
// email or phone, confirm, and its conversations, notes, labels and details move here; the other
// contact is deleted.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { describeError } from "../../lib/thread.ts";
import type { Contact } from "../../lib/types.ts";

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
      message.value = describeError(err, "The search failed.");
    }
  };
  const merge = async () => {
    const other = chosen.value;
    if (!other) return;
    try {
      await api("POST", `${base}/actions/contact_merge`, { base_contact_id: contact.id, mergee_contact_id: other.id });
      message.value = `${other.name || "The other contact"} was merged into ${contact.name || "this contact"}.`;
      found.value = null;
      chosen.value = null;
      q.value = "";
      onMerged();
    } catch (err) {
      message.value = describeError(err, "The contacts could not be merged.");
    }
  };
  return (
    <section class="settings-card" aria-labelledby="contact-merge-title">
      <h2 id="contact-merge-title">Merge a duplicate</h2>
      <form onSubmit={search} role="search">
        <label for="merge-search">Find the other contact</label>
        <input id="merge-search" type="search" value={q.value} onInput={(e) => (q.value = e.currentTarget.value)} />
        <button type="submit">Find</button>
      </form>
      {found.value && found.value.length === 0 && <p class="hint">No other contact matches.</p>}
      {found.value && found.value.length > 0 && (
        <ul class="merge-candidates" aria-label="Contacts found">
          {found.value.map((c) => (
            <li key={c.id}>
              <button type="button" aria-pressed={chosen.value?.id === c.id} onClick={() => (chosen.value = c)}>
                {c.name || "Unnamed"} {c.email ? `· ${c.email}` : ""} {c.phone_number ? `· ${c.phone_number}` : ""}
              </button>
            </li>
          ))}
        </ul>
      )}
      {chosen.value && (
        <div role="group" aria-label="Confirm the merge">
          <p>
            Merge {chosen.value.name || "the other contact"} into {contact.name || "this contact"}? Their conversations,
            notes and labels move here, and they are deleted.
          </p>
          <button type="button" class="danger" onClick={() => void merge()}>
            Merge
          </button>
        </div>
      )}
      {message.value && <p role="status">{message.value}</p>}
    </section>
  );
}

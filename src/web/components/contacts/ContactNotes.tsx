// A contact's notes (Chatwoot's contact notes): what the team wants to remember about the person,
// newest first, with who wrote each and when; anyone may add one, and delete one.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../../lib/api.ts";
import { dateTime } from "../../lib/format.ts";
import { describeError } from "../../lib/thread.ts";
import { t } from "../../lib/i18n.ts";

interface Note {
  id: number;
  content: string;
  created_at: number;
  user: { name?: string; available_name?: string } | null;
}

export function ContactNotes({ accountId, contactId }: { accountId: number; contactId: number }) {
  const notes = useSignal<Note[] | null>(null);
  const draft = useSignal("");
  const error = useSignal<string | null>(null);
  const url = `/api/v1/accounts/${accountId}/contacts/${contactId}/notes`;
  const load = () =>
    api<Note[]>("GET", url).then(
      (list) => (notes.value = list),
      (e) => (error.value = describeError(e, t("notes.load_failed"))),
    );
  useEffect(() => void load(), [url]);
  const add = async (e: Event) => {
    e.preventDefault();
    if (!draft.value.trim()) return;
    try {
      await api("POST", url, { content: draft.value.trim() });
      draft.value = "";
      error.value = null;
      await load();
    } catch (err) {
      error.value = describeError(err, t("notes.save_failed"));
    }
  };
  const remove = async (n: Note) => {
    try {
      await api("DELETE", `${url}/${n.id}`);
      await load();
    } catch (err) {
      error.value = describeError(err, t("notes.delete_failed"));
    }
  };
  return (
    <section class="settings-card" aria-labelledby="contact-notes-title">
      <h2 id="contact-notes-title">{t("notes.title")}</h2>
      {error.value && <p role="alert">{error.value}</p>}
      <form onSubmit={add}>
        <label for="contact-note">{t("notes.new")}</label>
        <textarea
          id="contact-note"
          rows={2}
          value={draft.value}
          onInput={(e) => (draft.value = e.currentTarget.value)}
        />
        <button type="submit">{t("notes.add")}</button>
      </form>
      {notes.value && notes.value.length === 0 && <p class="hint">{t("notes.none")}</p>}
      {notes.value && notes.value.length > 0 && (
        <ul class="notes" aria-label={t("notes.title")}>
          {notes.value.map((n) => (
            <li key={n.id}>
              <p>{n.content}</p>
              <p class="hint">
                {n.user?.available_name ?? n.user?.name ?? t("notes.former_agent")}, {dateTime(n.created_at)}{" "}
                <button
                  type="button"
                  class="small"
                  aria-label={t("notes.delete", { excerpt: n.content.slice(0, 40) })}
                  onClick={() => void remove(n)}
                >
                  {t("common.delete")}
                </button>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

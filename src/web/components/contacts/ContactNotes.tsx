// A contact's notes (Chatwoot's contact notes): what the team wants to remember about the person,
// newest first, with who wrote each and when; anyone may add one, and delete one.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../../lib/api.ts";
import { dateTime } from "../../lib/format.ts";
import { describeError } from "../../lib/thread.ts";

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
      (e) => (error.value = describeError(e, "The notes could not be loaded.")),
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
      error.value = describeError(err, "The note could not be saved.");
    }
  };
  const remove = async (n: Note) => {
    try {
      await api("DELETE", `${url}/${n.id}`);
      await load();
    } catch (err) {
      error.value = describeError(err, "The note could not be deleted.");
    }
  };
  return (
    <section class="settings-card" aria-labelledby="contact-notes-title">
      <h2 id="contact-notes-title">Notes</h2>
      {error.value && <p role="alert">{error.value}</p>}
      <form onSubmit={add}>
        <label for="contact-note">New note</label>
        <textarea
          id="contact-note"
          rows={2}
          value={draft.value}
          onInput={(e) => (draft.value = e.currentTarget.value)}
        />
        <button type="submit">Add note</button>
      </form>
      {notes.value && notes.value.length === 0 && <p class="hint">No notes yet.</p>}
      {notes.value && notes.value.length > 0 && (
        <ul class="notes" aria-label="Notes">
          {notes.value.map((n) => (
            <li key={n.id}>
              <p>{n.content}</p>
              <p class="hint">
                {n.user?.available_name ?? n.user?.name ?? "A former agent"}, {dateTime(n.created_at)}{" "}
                <button
                  type="button"
                  class="small"
                  aria-label={`Delete the note “${n.content.slice(0, 40)}”`}
                  onClick={() => void remove(n)}
                >
                  Delete
                </button>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

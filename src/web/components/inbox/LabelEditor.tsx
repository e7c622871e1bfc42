// The conversation's labels: each with a remove button, and a field to add one (suggesting the
// account's labels; conversation labels are free-form tags, as in Chatwoot).
import { useSignal } from "@preact/signals";
import { directory } from "../../lib/directory.ts";
import type { Conversation } from "../../lib/types.ts";

interface Props {
  conversation: Conversation;
  /** Saves the new list; true when saved. */
  onChange(labels: string[]): Promise<boolean>;
}

export function LabelEditor({ conversation: c, onChange }: Props) {
  const draft = useSignal("");
  const add = async (e: SubmitEvent) => {
    e.preventDefault();
    const title = draft.value.trim();
    if (!title || c.labels.includes(title)) return void (draft.value = "");
    if (await onChange([...c.labels, title])) draft.value = "";
  };
  const suggestions = (directory.value?.labels ?? []).filter((l) => !c.labels.includes(l));
  return (
    <div class="label-editor">
      <p class="label-heading" id="labels-title">
        Labels
      </p>
      {c.labels.length === 0 ? (
        <p class="hint">No labels yet.</p>
      ) : (
        <ul class="label-list" aria-labelledby="labels-title">
          {c.labels.map((l) => (
            <li key={l} class="tag label">
              {l}
              <button type="button" class="remove-label" aria-label={`Remove label ${l}`} onClick={() => void onChange(c.labels.filter((x) => x !== l))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="label-add" onSubmit={add}>
        <label for="label-input" class="visually-hidden">
          Add a label
        </label>
        <input id="label-input" list="label-suggestions" placeholder="Add a label" maxLength={255} value={draft.value} onInput={(e) => (draft.value = e.currentTarget.value)} />
        <datalist id="label-suggestions">
          {suggestions.map((l) => (
            <option key={l} value={l} />
          ))}
        </datalist>
        <button type="submit">Add</button>
      </form>
    </div>
  );
}

// The conversation's labels: each with a remove button, and a field to add one (suggesting the
// account's labels). A title the account has no label for yet is created through the Labels API
// first, so it follows the same title rule as the Labels page and shows there.
import { useSignal } from "@preact/signals";
import { ApiError, api } from "../../lib/api.ts";
import { directory, loadDirectory } from "../../lib/directory.ts";
import type { Conversation } from "../../lib/types.ts";
import { t } from "../../lib/i18n.ts";

interface Props {
  accountId: number;
  conversation: Conversation;
  /** Saves the new list; true when saved. */
  onChange(labels: string[]): Promise<boolean>;
}

/** The account's own spelling of a title, creating the label when the account has none: null if refused. */
async function labelTitle(
  accountId: number,
  typed: string,
  refused: (message: string) => void,
): Promise<string | null> {
  const known = directory.value?.labels.find((l) => l.toLowerCase() === typed.toLowerCase());
  if (known) return known;
  try {
    const created = await api<{ title: string }>("POST", `/api/v1/accounts/${accountId}/labels`, { title: typed });
    void loadDirectory(accountId, true).catch(() => undefined);
    return created.title;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) refused(t("labels.no_such", { label: typed }));
    else
      refused(
        error instanceof ApiError
          ? t("labels.refused", { reason: error.forField("title") ?? error.description })
          : t("labels.create_failed"),
      );
    return null;
  }
}

export function LabelEditor({ accountId, conversation: c, onChange }: Props) {
  const draft = useSignal("");
  const problem = useSignal("");
  const add = async (e: SubmitEvent) => {
    e.preventDefault();
    problem.value = "";
    const typed = draft.value.trim();
    if (!typed) return;
    const title = await labelTitle(accountId, typed, (message) => (problem.value = message));
    if (title === null) return;
    if (c.labels.includes(title)) return void (draft.value = "");
    if (await onChange([...c.labels, title])) draft.value = "";
  };
  const suggestions = (directory.value?.labels ?? []).filter((l) => !c.labels.includes(l));
  return (
    <div class="label-editor">
      <p class="label-heading" id="labels-title">
        {t("labels.title")}
      </p>
      {c.labels.length === 0 ? (
        <p class="hint">{t("labels.none")}</p>
      ) : (
        <ul class="label-list" aria-labelledby="labels-title">
          {c.labels.map((l) => (
            <li key={l} class="tag label">
              {l}
              <button
                type="button"
                class="remove-label"
                aria-label={t("labels.remove", { label: l })}
                onClick={() => void onChange(c.labels.filter((x) => x !== l))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="label-add" onSubmit={add}>
        <label for="label-input" class="visually-hidden">
          {t("labels.add")}
        </label>
        <input
          id="label-input"
          list="label-suggestions"
          placeholder={t("labels.add")}
          maxLength={255}
          value={draft.value}
          aria-invalid={problem.value ? true : undefined}
          aria-describedby={problem.value ? "label-input-error" : undefined}
          onInput={(e) => (draft.value = e.currentTarget.value)}
        />
        <datalist id="label-suggestions">
          {suggestions.map((l) => (
            <option key={l} value={l} />
          ))}
        </datalist>
        <button type="submit">{t("labels.add_button")}</button>
      </form>
      {problem.value && (
        <p id="label-input-error" class="field-error" role="alert">
          {problem.value}
        </p>
      )}
    </div>
  );
}

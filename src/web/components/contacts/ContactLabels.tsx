// A contact's labels: each with a remove button, and the account's other labels to add (a
// contact's labels are the account's, as the Labels page defines them).
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../../lib/api.ts";
import { directory } from "../../lib/directory.ts";
import { describeError } from "../../lib/thread.ts";
import { t } from "../../lib/i18n.ts";

export function ContactLabels({ accountId, contactId }: { accountId: number; contactId: number }) {
  const labels = useSignal<string[] | null>(null);
  const error = useSignal<string | null>(null);
  const url = `/api/v1/accounts/${accountId}/contacts/${contactId}/labels`;
  useEffect(() => {
    api<{ payload: string[] }>("GET", url).then(
      (r) => (labels.value = r.payload),
      (e) => (error.value = describeError(e, t("contact_labels.load_failed"))),
    );
  }, [url]);
  const save = async (next: string[]) => {
    try {
      labels.value = (await api<{ payload: string[] }>("POST", url, { labels: next })).payload;
      error.value = null;
    } catch (e) {
      error.value = describeError(e, t("contact_labels.save_failed"));
    }
  };
  const current = labels.value ?? [];
  const choices = (directory.value?.labels ?? []).filter((l) => !current.includes(l));
  return (
    <section class="settings-card" aria-labelledby="contact-labels-title">
      <h2 id="contact-labels-title">{t("labels.title")}</h2>
      {error.value && <p role="alert">{error.value}</p>}
      {labels.value && current.length === 0 && <p class="hint">{t("labels.none")}</p>}
      {current.length > 0 && (
        <ul class="label-list" aria-labelledby="contact-labels-title">
          {current.map((l) => (
            <li key={l} class="tag label">
              {l}
              <button
                type="button"
                class="remove-label"
                aria-label={t("labels.remove", { label: l })}
                onClick={() => void save(current.filter((x) => x !== l))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {labels.value && choices.length > 0 && (
        <p>
          <label for="contact-label-add">{t("contact_labels.add")}</label>
          <select
            id="contact-label-add"
            value=""
            onChange={(e) => e.currentTarget.value && void save([...current, e.currentTarget.value])}
          >
            <option value="">{t("contact_labels.choose")}</option>
            {choices.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </p>
      )}
    </section>
  );
}

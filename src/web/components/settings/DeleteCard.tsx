// The end of a record's settings page: what deleting it does, a button that asks once more, and
// then back to the list it was in.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { loadDirectory } from "../../lib/directory.ts";
import { navigate } from "../../lib/router.ts";
import { describeError } from "../../lib/thread.ts";
import { ConfirmButton } from "../ConfirmButton.tsx";

interface Props {
  accountId: number;
  /** "inbox", "team": names the heading's id. */
  what: string;
  /** "Delete this inbox", the button "Delete inbox", the question "Delete Support?", the failure. */
  title: string;
  label: string;
  question: string;
  failed: string;
  consequence: string;
  url: string;
  /** Where to go afterwards. */
  back: string;
}

export function DeleteCard({ accountId, what, title, label, question, failed, consequence, url, back }: Props) {
  const error = useSignal<string | null>(null);
  const remove = async () => {
    try {
      await api("DELETE", url);
      void loadDirectory(accountId, true).catch(() => undefined);
      navigate(back);
    } catch (e) {
      error.value = describeError(e, failed);
    }
  };
  return (
    <section class="settings-card danger-zone" aria-labelledby={`${what}-delete-title`}>
      <h2 id={`${what}-delete-title`}>{title}</h2>
      <p>{consequence}</p>
      <ConfirmButton label={label} question={question} onConfirm={remove} />
      {error.value && <p role="alert">{error.value}</p>}
    </section>
  );
}

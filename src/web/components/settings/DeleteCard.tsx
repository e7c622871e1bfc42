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
  /** "inbox", "team": the heading says "Delete this inbox". */
  what: string;
  name: string;
  consequence: string;
  url: string;
  /** Where to go afterwards. */
  back: string;
}

export function DeleteCard({ accountId, what, name, consequence, url, back }: Props) {
  const error = useSignal<string | null>(null);
  const remove = async () => {
    try {
      await api("DELETE", url);
      void loadDirectory(accountId, true).catch(() => undefined);
      navigate(back);
    } catch (e) {
      error.value = describeError(e, `The ${what} could not be deleted.`);
    }
  };
  return (
    <section class="settings-card danger-zone" aria-labelledby={`${what}-delete-title`}>
      <h2 id={`${what}-delete-title`}>Delete this {what}</h2>
      <p>{consequence}</p>
      <ConfirmButton label={`Delete ${what}`} question={`Delete ${name}?`} onConfirm={remove} />
      {error.value && <p role="alert">{error.value}</p>}
    </section>
  );
}

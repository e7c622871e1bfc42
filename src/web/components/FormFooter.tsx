// The end of an edit form: its failure (when no one field is to blame), what the last save did,
// and the save button.
import { FormFailure } from "./FormFailure.tsx";
import { SubmitButton } from "./SubmitButton.tsx";
import { t } from "../lib/i18n.ts";

interface Props {
  failure: string | null;
  saved: string;
  busy: boolean;
  label: string;
}

export function FormFooter({ failure, saved, busy, label }: Props) {
  return (
    <>
      <FormFailure message={failure} />
      <p role="status" class="form-status">
        {saved}
      </p>
      <SubmitButton busy={busy} label={label} busyLabel={t("common.saving")} />
    </>
  );
}

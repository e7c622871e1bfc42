// The end of an automation rule's row: its remove button and the server's messages about it.
import { t } from "../../lib/i18n.ts";
export function RowEnd({
  id,
  what,
  errors,
  onRemove,
}: {
  id: string;
  what: string;
  errors: string[];
  onRemove: (() => void) | undefined;
}) {
  return (
    <>
      {onRemove && (
        <button type="button" class="small" onClick={onRemove}>
          {t("common.remove")}
          <span class="visually-hidden"> {what}</span>
        </button>
      )}
      {errors.length > 0 && (
        <p class="field-error" id={`${id}-errors`}>
          {errors.join("; ")}
        </p>
      )}
    </>
  );
}

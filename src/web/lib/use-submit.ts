// Sending a form: one request at a time, the server's 422 items shown under the fields they name
// (prefixed with the field's label), anything else as one message for the form; the first field
// in error takes focus.
import { useSignal, type Signal } from "@preact/signals";
import { ApiError } from "./api.ts";
import { t } from "./i18n.ts";
import { localMessage } from "./server-messages.ts";

export interface Submit {
  busy: Signal<boolean>;
  /** By field key: the message to show under it (fields of this form). */
  errors: Signal<Record<string, string>>;
  /** Every field the server named, with its message (for forms of many rows: conditions[1].values…). */
  all: Signal<Record<string, string>>;
  failure: Signal<string | null>;
  /** Runs the request; true when it succeeded. */
  run(request: () => Promise<void>): Promise<boolean>;
}

/** fields: field key → its label; the control of field `k` has the id `${idPrefix}${k}`. */
export function useSubmit(fields: Record<string, string>, idPrefix: string, what: string): Submit {
  const busy = useSignal(false);
  const errors = useSignal<Record<string, string>>({});
  const all = useSignal<Record<string, string>>({});
  const failure = useSignal<string | null>(null);
  const run = async (request: () => Promise<void>) => {
    if (busy.value) return false;
    busy.value = true;
    errors.value = {};
    all.value = {};
    failure.value = null;
    try {
      await request();
      return true;
    } catch (e) {
      const found: Record<string, string> = {};
      const named: Record<string, string> = {};
      if (e instanceof ApiError) {
        for (const err of e.errors) {
          named[err.field] ??= err.message;
          if (err.field in fields) found[err.field] ??= `${fields[err.field]} ${localMessage(err.message)}`;
        }
      }
      errors.value = found;
      all.value = named;
      const first = Object.keys(found)[0];
      if (first) document.getElementById(idPrefix + first)?.focus();
      else failure.value = e instanceof ApiError ? e.description : t("form.failed", { what });
      return false;
    } finally {
      busy.value = false;
    }
  };
  return { busy, errors, all, failure, run };
}

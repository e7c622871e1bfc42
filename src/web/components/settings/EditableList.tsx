// A settings list whose rows are changed in the form below it (canned responses, dashboard apps):
// the card with its title, hint, loading state and last message, the table, and on each row Edit
// (which hands the row to the form) and Delete (asked twice). EditFormEnd closes that form.
import type { ComponentChildren } from "preact";
import { t } from "../../lib/i18n.ts";
import type { Resource } from "../../lib/use-resource.ts";
import { ConfirmButton } from "../ConfirmButton.tsx";
import { DataTable } from "../DataTable.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { LoadState } from "../LoadState.tsx";
import { SubmitButton } from "../SubmitButton.tsx";

interface ListProps<T> {
  id: string;
  title: string;
  hint: string;
  none: string;
  list: Resource<T[]>;
  message: string;
  columns: string[];
  /** The row's cells before its buttons. */
  cells(item: T): ComponentChildren;
  /** How the row is named to screen readers and in the question, e.g. "/hello" or "Orders". */
  name(item: T): string;
  editLabel(item: T): string;
  question(item: T): string;
  onEdit(item: T): void;
  onDelete(item: T): Promise<void>;
  /** Whether this member may change the row (macros: another's global one is not theirs); all by default. */
  editable?(item: T): boolean;
}

export function EditableList<T extends { id: number }>(p: ListProps<T>) {
  const rows = p.list.data.value;
  return (
    <section class="settings-card" aria-labelledby={p.id}>
      <h2 id={p.id}>{p.title}</h2>
      <p class="hint">{p.hint}</p>
      <LoadState resource={p.list} />
      <p role="status" class="form-status">
        {p.message}
      </p>
      {rows && rows.length === 0 && <p>{p.none}</p>}
      {rows && rows.length > 0 && (
        <DataTable columns={p.columns} actions caption={p.title}>
          {rows.map((item) => (
            <tr key={item.id}>
              {p.cells(item)}
              <td>
                {(p.editable?.(item) ?? true) && (
                  <>
                    <button type="button" class="small" aria-label={p.editLabel(item)} onClick={() => p.onEdit(item)}>
                      {t("common.edit")}
                    </button>{" "}
                    <ConfirmButton
                      label={t("common.delete")}
                      target={p.name(item)}
                      question={p.question(item)}
                      onConfirm={() => p.onDelete(item)}
                    />
                  </>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

interface EndProps {
  failure: string | null;
  busy: boolean;
  /** Save (a row is being edited, and Cancel goes back to adding one) or create. */
  editing: boolean;
  saveLabel: string;
  createLabel: string;
  onCancel(): void;
}

export function EditFormEnd({ failure, busy, editing, saveLabel, createLabel, onCancel }: EndProps) {
  return (
    <>
      <FormFailure message={failure} />
      <SubmitButton busy={busy} label={editing ? saveLabel : createLabel} busyLabel={t("common.saving")} />
      {editing && (
        <button type="button" onClick={onCancel}>
          {t("common.cancel")}
        </button>
      )}
    </>
  );
}

// A data table's header row; `actions` adds a last column for row buttons, named for screen readers.
import { t } from "../lib/i18n.ts";
export function TableHead({ columns, actions = false }: { columns: string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
        {actions && (
          <th scope="col">
            <span class="visually-hidden">{t("common.actions")}</span>
          </th>
        )}
      </tr>
    </thead>
  );
}

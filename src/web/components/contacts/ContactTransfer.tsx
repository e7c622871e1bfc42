// Administrators move contacts in and out as CSV: an import (the server says how many rows it
// created, updated and refused, with each refused row's reasons) and an export of every contact.
import { useSignal } from "@preact/signals";
import { api, apiFile } from "../../lib/api.ts";
import { describeError } from "../../lib/thread.ts";
import { t } from "../../lib/i18n.ts";

interface ImportResult {
  total_records: number;
  created_records: number;
  updated_records: number;
  failed_records: { row: number; errors: string[] }[];
}

export function ContactTransfer({ accountId, onImported }: { accountId: number; onImported(): void }) {
  const busy = useSignal(false);
  const message = useSignal("");
  const failed = useSignal<ImportResult["failed_records"]>([]);
  const base = `/api/v1/accounts/${accountId}/contacts`;

  const importFile = async (e: SubmitEvent) => {
    e.preventDefault();
    const input = (e.currentTarget as HTMLFormElement).elements.namedItem("import_file") as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return void (message.value = t("transfer.choose_file"));
    const body = new FormData();
    body.append("import_file", file);
    busy.value = true;
    try {
      const r = (await api<{ data_import: ImportResult }>("POST", `${base}/import`, body)).data_import;
      message.value = t("transfer.result", {
        total: r.total_records,
        created: r.created_records,
        updated: r.updated_records,
        refused: r.failed_records.length,
      });
      failed.value = r.failed_records;
      input.value = "";
      onImported();
    } catch (error) {
      message.value = describeError(error, t("transfer.import_failed"));
      failed.value = [];
    } finally {
      busy.value = false;
    }
  };

  const exportAll = async () => {
    try {
      const blob = await apiFile("POST", `${base}/export`, {
        column_names: ["id", "name", "email", "phone_number", "identifier", "company_name", "created_at"],
      });
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = "contacts.csv";
      link.click();
      URL.revokeObjectURL(link.href);
      message.value = t("transfer.exported");
    } catch (error) {
      message.value = describeError(error, t("transfer.export_failed"));
    }
  };

  return (
    <details class="contact-transfer">
      <summary>{t("transfer.title")}</summary>
      <form onSubmit={importFile}>
        <label for="contact-import-file">{t("transfer.file")}</label>
        <input id="contact-import-file" name="import_file" type="file" accept=".csv,text/csv" />
        <button type="submit" disabled={busy.value}>
          {busy.value ? t("transfer.importing") : t("transfer.import")}
        </button>
        <button type="button" onClick={() => void exportAll()}>
          {t("transfer.export")}
        </button>
      </form>
      <p role="status">{message.value}</p>
      {failed.value.length > 0 && (
        <ul aria-label={t("transfer.refused")}>
          {failed.value.map((f) => (
            <li key={f.row}>{t("transfer.row", { row: f.row, errors: f.errors.join("; ") })}</li>
          ))}
        </ul>
      )}
    </details>
  );
}

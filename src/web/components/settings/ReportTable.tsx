// A summary report as a table: the numbers behind the chart, readable by everyone.
import { duration } from "../../lib/format.ts";
import { DataTable } from "../DataTable.tsx";
import { t } from "../../lib/i18n.ts";

export interface SummaryRow {
  id: number;
  conversations_count: number;
  resolved_conversations_count: number;
  avg_resolution_time: number | null;
  avg_first_response_time: number | null;
  avg_reply_time: number | null;
}

export function ReportTable({ rows, caption }: { rows: (SummaryRow & { name: string })[]; caption: string }) {
  return (
    <>
      <DataTable
        columns={[
          t("reports.col.name"),
          t("reports.col.conversations"),
          t("reports.col.resolved"),
          t("reports.col.first_response"),
          t("reports.col.resolution"),
          t("reports.col.reply"),
        ]}
        caption={caption}
      >
        {rows.map((r) => (
          <tr key={r.id}>
            <th scope="row">{r.name}</th>
            <td>{r.conversations_count}</td>
            <td>{r.resolved_conversations_count}</td>
            <td>{duration(r.avg_first_response_time)}</td>
            <td>{duration(r.avg_resolution_time)}</td>
            <td>{duration(r.avg_reply_time)}</td>
          </tr>
        ))}
      </DataTable>
      <p class="hint">{t("reports.averages")}</p>
    </>
  );
}

// A summary report as a table: the numbers behind the chart, readable by everyone.
import { duration } from "../../lib/format.ts";
import { TableHead } from "../TableHead.tsx";

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
    <div class="table-scroll">
      <table class="data-table">
        <caption class="visually-hidden">{caption}</caption>
        <TableHead columns={["Name", "Conversations", "Resolved", "First response", "Resolution", "Reply"]} />
        <tbody>
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
        </tbody>
      </table>
      <p class="hint">Times are averages over the period.</p>
    </div>
  );
}

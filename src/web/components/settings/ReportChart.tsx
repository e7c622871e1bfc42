// Conversations and resolutions per row as paired horizontal bars (plain CSS, no chart library).
// Hidden from screen readers: the table below says the same in words.
import type { SummaryRow } from "./ReportTable.tsx";
import { t } from "../../lib/i18n.ts";

export function ReportChart({ rows, title }: { rows: (SummaryRow & { name: string })[]; title: string }) {
  const max = Math.max(1, ...rows.map((r) => Math.max(r.conversations_count, r.resolved_conversations_count)));
  const width = (n: number) => `${(n / max) * 100}%`;
  return (
    <figure class="report-chart" aria-hidden="true">
      <figcaption>
        {title}
        <span class="legend">
          <span class="bar conversations" /> {t("reports.legend_conversations")} <span class="bar resolved" />{" "}
          {t("reports.legend_resolved")}
        </span>
      </figcaption>
      {rows.map((r) => (
        <div key={r.id} class="chart-row">
          <span class="chart-name">{r.name}</span>
          <span class="chart-bars">
            <span class="bar conversations" style={{ width: width(r.conversations_count) }}>
              {r.conversations_count}
            </span>
            <span class="bar resolved" style={{ width: width(r.resolved_conversations_count) }}>
              {r.resolved_conversations_count}
            </span>
          </span>
        </div>
      ))}
    </figure>
  );
}

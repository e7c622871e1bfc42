// Settings › Reports: conversations, resolutions and average times per team, agent or inbox over
// a period, as a chart and a table (the table is the chart's text). Chatwoot's summary reports
// (§3.10: GET /api/v2/accounts/:id/summary_reports/team|agent|inbox?since&until, one row per
// record; business_hours=true counts the times within the inboxes' working hours only). A server
// without them says so instead.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { directory } from "../../lib/directory.ts";
import { useResource } from "../../lib/use-resource.ts";
import type { SectionProps } from "../Settings.tsx";
import { ReportChart } from "./ReportChart.tsx";
import { ReportTable, type SummaryRow } from "./ReportTable.tsx";
import { LoadState } from "../LoadState.tsx";
import { t } from "../../lib/i18n.ts";

type Kind = "team" | "agent" | "inbox";
const KINDS = [
  { key: "team", label: "reports.teams", none: "reports.none_team", chart: "reports.chart_team" },
  { key: "agent", label: "reports.agents", none: "reports.none_agent", chart: "reports.chart_agent" },
  { key: "inbox", label: "reports.inboxes", none: "reports.none_inbox", chart: "reports.chart_inbox" },
] as const;
const PERIODS = [7, 30, 90];

/** null: this server has no summary reports. */
async function summary(
  accountId: number,
  kind: Kind,
  days: number,
  businessHours: boolean,
): Promise<SummaryRow[] | null> {
  const until = Math.floor(Date.now() / 1000);
  const since = until - days * 86400;
  const hours = businessHours ? "&business_hours=true" : "";
  return await api<SummaryRow[]>(
    "GET",
    `/api/v2/accounts/${accountId}/summary_reports/${kind}?since=${since}&until=${until}${hours}`,
  );
}

function nameOf(kind: Kind, id: number): string {
  const d = directory.value;
  if (kind === "team") return d?.teams.find((team) => team.id === id)?.name ?? t("reports.team_n", { id });
  if (kind === "agent") return d?.agents.find((a) => a.id === id)?.available_name ?? t("reports.agent_n", { id });
  return d?.inboxes.find((i) => i.id === id)?.name ?? t("reports.inbox_n", { id });
}

export function ReportsSettings({ accountId }: SectionProps) {
  const kind = useSignal<Kind>("team");
  const days = useSignal(7);
  const businessHours = useSignal(false);
  // The answer names what it answers, so a table never carries the next choice's caption early.
  const ask = { kind: kind.value, days: days.value, hours: businessHours.value };
  const report = useResource(
    () => summary(accountId, ask.kind, ask.days, ask.hours).then((rows) => ({ rows, ...ask })),
    [accountId, ask.kind, ask.days, ask.hours],
    t("reports.what"),
  );
  const shown = report.data.value;
  const rows = shown?.rows;
  const current = KINDS.find((k) => k.key === (shown?.kind ?? kind.value))!;
  const named = shown && rows ? rows.map((r) => ({ ...r, name: nameOf(shown.kind, r.id) })) : undefined;
  const period = shown ? t(shown.hours ? "reports.period_hours" : "reports.period", { days: shown.days }) : "";
  return (
    <section class="settings-card report" aria-labelledby="reports-title">
      <h2 id="reports-title">{t("reports.title")}</h2>
      <div class="report-controls">
        <div class="assignee-tabs" role="group" aria-label={t("reports.by")}>
          {KINDS.map((k) => (
            <button
              key={k.key}
              type="button"
              class="tab-button"
              aria-pressed={kind.value === k.key}
              onClick={() => (kind.value = k.key)}
            >
              {t(k.label)}
            </button>
          ))}
        </div>
        <label for="report-period" class="visually-hidden">
          {t("reports.period_label")}
        </label>
        <select id="report-period" value={days.value} onChange={(e) => (days.value = Number(e.currentTarget.value))}>
          {PERIODS.map((d) => (
            <option key={d} value={d}>
              {t("reports.last_days", { days: d })}
            </option>
          ))}
        </select>
        <label class="check">
          <input
            type="checkbox"
            checked={businessHours.value}
            onChange={(e) => (businessHours.value = e.currentTarget.checked)}
          />
          <span>{t("reports.business_hours")}</span>
        </label>
      </div>
      <LoadState resource={report} />
      {named && named.length === 0 && <p>{t(current.none)}</p>}
      {named && named.length > 0 && (
        <>
          <ReportChart rows={named} title={t(current.chart, { period })} />
          <ReportTable rows={named} caption={t("reports.caption", { kind: t(current.label), period })} />
        </>
      )}
    </section>
  );
}

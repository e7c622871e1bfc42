// Settings › Reports: the account at a glance over the last 7, 30 or 90 days, each figure beside the
// period of equal length before it (GET /api/v2/accounts/:id/reports/summary, with `previous`),
// and the average satisfaction rating of the CSAT answers in the same period.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { duration } from "../../lib/format.ts";
import { useResource } from "../../lib/use-resource.ts";
import { LoadState } from "../LoadState.tsx";
import { csatSince, type CsatAnswer } from "./CsatResponses.tsx";
import { type Key, t, tn } from "../../lib/i18n.ts";

interface Figures {
  conversations_count: number;
  incoming_messages_count: number;
  outgoing_messages_count: number;
  avg_first_response_time: number | null;
  avg_resolution_time: number | null;
  resolutions_count: number;
}
type Overview = Figures & { previous: Figures };

const PERIODS = [7, 30, 90];
const COUNTS: [keyof Figures, Key][] = [
  ["conversations_count", "overview.conversations"],
  ["incoming_messages_count", "overview.incoming"],
  ["outgoing_messages_count", "overview.outgoing"],
  ["resolutions_count", "overview.resolutions"],
];
const TIMES: [keyof Figures, Key][] = [
  ["avg_first_response_time", "overview.first_response"],
  ["avg_resolution_time", "overview.resolution"],
];

/** "+12 %" / "−3 %" against the period before; nothing when there is nothing to compare with. */
function change(now: number | null, before: number | null): string {
  if (now === null || before === null || before === 0) return "";
  const pct = Math.round(((now - before) / before) * 100);
  return t("overview.change", { sign: pct > 0 ? "+" : pct < 0 ? "−" : "±", pct: Math.abs(pct) });
}

function average(answers: CsatAnswer[]): string {
  if (answers.length === 0) return "—";
  return t("overview.of_5", { rating: (answers.reduce((sum, a) => sum + a.rating, 0) / answers.length).toFixed(1) });
}

export function AccountOverview({ accountId }: { accountId: number }) {
  const days = useSignal(7);
  const overview = useResource(
    async () => {
      const until = Math.floor(Date.now() / 1000);
      const since = until - days.value * 86400;
      const [figures, csat] = await Promise.all([
        api<Overview>(
          "GET",
          `/api/v2/accounts/${accountId}/reports/summary?type=account&since=${since}&until=${until}`,
        ),
        csatSince(accountId, since, until),
      ]);
      return { figures, csat, days: days.value };
    },
    [accountId, days.value],
    t("overview.what"),
  );
  const o = overview.data.value;
  return (
    <section class="settings-card" aria-labelledby="overview-title">
      <div class="card-head">
        <h2 id="overview-title">{t("overview.title")}</h2>
        <label for="overview-period" class="visually-hidden">
          {t("overview.period")}
        </label>
        <select id="overview-period" value={days.value} onChange={(e) => (days.value = Number(e.currentTarget.value))}>
          {PERIODS.map((d) => (
            <option key={d} value={d}>
              {t("reports.last_days", { days: d })}
            </option>
          ))}
        </select>
      </div>
      <LoadState resource={overview} />
      {o && (
        <dl class="overview" aria-label={t("overview.label", { days: o.days })}>
          {COUNTS.map(([key, label]) => (
            <div key={key}>
              <dt>{t(label)}</dt>
              <dd>{o.figures[key]}</dd>
              <dd class="hint">{change(o.figures[key], o.figures.previous[key])}</dd>
            </div>
          ))}
          {TIMES.map(([key, label]) => (
            <div key={key}>
              <dt>{t(label)}</dt>
              <dd>{duration(o.figures[key])}</dd>
              <dd class="hint">{change(o.figures[key], o.figures.previous[key])}</dd>
            </div>
          ))}
          <div>
            <dt>{t("overview.satisfaction")}</dt>
            <dd>{average(o.csat)}</dd>
            <dd class="hint">{tn("overview.answers", o.csat.length)}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}

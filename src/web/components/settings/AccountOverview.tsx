// Settings › Reports: the account at a glance over the last 7, 30 or 90 days, each figure beside the
// period of equal length before it (GET /api/v2/accounts/:id/reports/summary, with `previous`),
// and the average satisfaction rating of the CSAT answers in the same period.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { duration } from "../../lib/format.ts";
import { useResource } from "../../lib/use-resource.ts";
import { LoadState } from "../LoadState.tsx";
import { csatSince, type CsatAnswer } from "./CsatResponses.tsx";

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
const COUNTS: [keyof Figures, string][] = [
  ["conversations_count", "Conversations"],
  ["incoming_messages_count", "Incoming messages"],
  ["outgoing_messages_count", "Outgoing messages"],
  ["resolutions_count", "Resolutions"],
];
const TIMES: [keyof Figures, string][] = [
  ["avg_first_response_time", "First response time"],
  ["avg_resolution_time", "Resolution time"],
];

/** "+12 %" / "−3 %" against the period before; nothing when there is nothing to compare with. */
function change(now: number | null, before: number | null): string {
  if (now === null || before === null || before === 0) return "";
  const pct = Math.round(((now - before) / before) * 100);
  return `${pct > 0 ? "+" : pct < 0 ? "−" : "±"}${Math.abs(pct)} % on the period before`;
}

function average(answers: CsatAnswer[]): string {
  if (answers.length === 0) return "—";
  return `${(answers.reduce((sum, a) => sum + a.rating, 0) / answers.length).toFixed(1)} of 5`;
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
    "The overview",
  );
  const o = overview.data.value;
  return (
    <section class="settings-card" aria-labelledby="overview-title">
      <div class="card-head">
        <h2 id="overview-title">Overview</h2>
        <label for="overview-period" class="visually-hidden">
          Overview period
        </label>
        <select id="overview-period" value={days.value} onChange={(e) => (days.value = Number(e.currentTarget.value))}>
          {PERIODS.map((d) => (
            <option key={d} value={d}>
              Last {d} days
            </option>
          ))}
        </select>
      </div>
      <LoadState resource={overview} />
      {o && (
        <dl class="overview" aria-label={`Overview, last ${o.days} days`}>
          {COUNTS.map(([key, label]) => (
            <div key={key}>
              <dt>{label}</dt>
              <dd>{o.figures[key]}</dd>
              <dd class="hint">{change(o.figures[key], o.figures.previous[key])}</dd>
            </div>
          ))}
          {TIMES.map(([key, label]) => (
            <div key={key}>
              <dt>{label}</dt>
              <dd>{duration(o.figures[key])}</dd>
              <dd class="hint">{change(o.figures[key], o.figures.previous[key])}</dd>
            </div>
          ))}
          <div>
            <dt>Satisfaction</dt>
            <dd>{average(o.csat)}</dd>
            <dd class="hint">
              {o.csat.length} {o.csat.length === 1 ? "answer" : "answers"}
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}

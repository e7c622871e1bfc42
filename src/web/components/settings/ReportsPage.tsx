// Settings › Reports: the account overview, the summaries by team, agent or inbox, and the
// satisfaction answers.
import type { SectionProps } from "../Settings.tsx";
import { AccountOverview } from "./AccountOverview.tsx";
import { CsatResponses } from "./CsatResponses.tsx";
import { ReportsSettings } from "./ReportsSettings.tsx";

export function ReportsPage(props: SectionProps) {
  return (
    <div class="settings-stack">
      <AccountOverview accountId={props.accountId} />
      <ReportsSettings {...props} />
      <CsatResponses accountId={props.accountId} />
    </div>
  );
}

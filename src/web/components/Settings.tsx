// Settings, for administrators (Shell shows agents "Not allowed" instead, and the server refuses
// their changes anyway): the account, inboxes, agents, teams, labels, automation, webhooks,
// dashboard apps, reports. Macros and notifications are the exceptions: every member keeps personal
// macros and their own notification choices there, so agents may open those two sections (and see
// only their tabs).
import type { ComponentType } from "preact";
import { type Key, t } from "../lib/i18n.ts";
import { paths } from "../lib/routes.ts";
import type { AccountMembership } from "../lib/session.ts";
import { AccountSettings } from "./AccountSettings.tsx";
import { Link } from "./Link.tsx";
import { NotFound } from "./NotFound.tsx";
import { Page } from "./Page.tsx";
import { AgentsSettings } from "./settings/AgentsSettings.tsx";
import { AutomationSettings } from "./settings/AutomationSettings.tsx";
import { InboxesSettings } from "./settings/InboxesSettings.tsx";
import { LabelsSettings } from "./settings/LabelsSettings.tsx";
import { ReportsPage } from "./settings/ReportsPage.tsx";
import { CannedResponsesSettings } from "./settings/CannedResponsesSettings.tsx";
import { DashboardAppsSettings } from "./settings/DashboardAppsSettings.tsx";
import { MacrosSettings } from "./settings/MacrosSettings.tsx";
import { NotificationSettings } from "./settings/NotificationSettings.tsx";
import { TeamsSettings } from "./settings/TeamsSettings.tsx";
import { WebhooksSettings } from "./settings/WebhooksSettings.tsx";

export interface SectionProps {
  accountId: number;
  /** The record the path names (/settings/inboxes/3), if any. */
  itemId: number | null;
}

interface Section {
  key: string;
  label: Key;
  component: ComponentType<SectionProps>;
  items?: boolean;
  /** Agents may open it too. */
  members?: boolean;
}

const SECTIONS: Section[] = [
  {
    key: "general",
    label: "settings.nav.general",
    component: ({ accountId }) => <AccountSettings accountId={accountId} />,
  },
  { key: "inboxes", label: "settings.nav.inboxes", component: InboxesSettings, items: true },
  { key: "agents", label: "settings.nav.agents", component: AgentsSettings, items: true },
  { key: "teams", label: "settings.nav.teams", component: TeamsSettings, items: true },
  { key: "labels", label: "settings.nav.labels", component: LabelsSettings, items: true },
  { key: "canned", label: "settings.nav.canned", component: CannedResponsesSettings },
  { key: "macros", label: "settings.nav.macros", component: MacrosSettings, members: true },
  { key: "notifications", label: "settings.nav.notifications", component: NotificationSettings, members: true },
  { key: "automation", label: "settings.nav.automation", component: AutomationSettings, items: true },
  { key: "webhooks", label: "settings.nav.webhooks", component: WebhooksSettings, items: true },
  { key: "dashboard-apps", label: "settings.nav.apps", component: DashboardAppsSettings },
  { key: "reports", label: "settings.nav.reports", component: ReportsPage },
];

/** Whether this member may open the section (Shell shows "Not allowed" otherwise). */
export function mayOpen(account: AccountMembership, section: string | null): boolean {
  return account.role === "administrator" || SECTIONS.some((s) => s.key === section && s.members);
}

export function Settings({
  account,
  section,
  itemId,
}: {
  account: AccountMembership;
  section: string | null;
  itemId: number | null;
}) {
  const current = SECTIONS.find((s) => s.key === section);
  if (!current || (itemId !== null && !current.items)) return <NotFound />;
  const Section = current.component;
  return (
    <Page title={t("settings.title", { section: t(current.label) })}>
      <nav class="tabs" aria-label={t("nav.settings")}>
        <ul>
          {SECTIONS.filter((s) => mayOpen(account, s.key)).map((s) => (
            <li key={s.key}>
              <Link href={paths.settings(account.id, s.key)} current={s.key === section}>
                {t(s.label)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Section accountId={account.id} itemId={itemId} />
    </Page>
  );
}

// Settings, for administrators (Shell shows agents "Not allowed" instead). Sections to come:
// inboxes, agents, teams, labels, automation, webhooks, reports; for now the account itself.
import { paths } from "../lib/routes.ts";
import type { AccountMembership } from "../lib/session.ts";
import { AccountSettings } from "./AccountSettings.tsx";
import { Link } from "./Link.tsx";
import { NotFound } from "./NotFound.tsx";
import { Page } from "./Page.tsx";

const SECTIONS = [{ key: "general", label: "Account" }];

export function Settings({ account, section }: { account: AccountMembership; section: string | null }) {
  if (!SECTIONS.some((s) => s.key === section)) return <NotFound />;
  return (
    <Page title="Settings">
      <nav class="tabs" aria-label="Settings">
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.key}>
              <Link href={paths.settings(account.id, s.key)} current={s.key === section}>
                {s.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <AccountSettings accountId={account.id} />
    </Page>
  );
}

// Main navigation: the conversations, the contacts, and settings for administrators. The inbox's views (mine,
// unassigned, all, by inbox, team, label) are the filters above the conversation list.
import { paths, type Route } from "../lib/routes.ts";
import type { AccountMembership } from "../lib/session.ts";
import { Link } from "./Link.tsx";
import { t } from "../lib/i18n.ts";

export function Sidebar({ account, route, open }: { account: AccountMembership; route: Route; open: boolean }) {
  return (
    <nav id="sidebar" class={open ? "sidebar open" : "sidebar"} aria-label={t("nav.main")}>
      <ul class="nav-list">
        <li>
          <Link href={paths.dashboard(account.id)} current={route.name === "conversations"}>
            {t("nav.conversations")}
          </Link>
        </li>
        <li>
          <Link href={paths.contacts(account.id)} current={route.name === "contacts"}>
            {t("nav.contacts")}
          </Link>
        </li>
        {account.role === "administrator" && (
          <li>
            <Link href={paths.settings(account.id)} current={route.name === "settings"}>
              {t("nav.settings")}
            </Link>
          </li>
        )}
      </ul>
    </nav>
  );
}

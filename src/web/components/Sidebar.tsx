// Main navigation. The inbox views (mine / unassigned / all, inboxes, teams, labels) will live in
// the section below the links once the conversations API exists; until then it says so.
import { paths, type Route } from "../lib/routes.ts";
import type { AccountMembership } from "../lib/session.ts";
import { Link } from "./Link.tsx";

export function Sidebar({ account, route, open }: { account: AccountMembership; route: Route; open: boolean }) {
  return (
    <nav id="sidebar" class={open ? "sidebar open" : "sidebar"} aria-label="Main">
      <ul class="nav-list">
        <li>
          <Link href={paths.dashboard(account.id)} current={route.name === "dashboard"}>
            Conversations
          </Link>
        </li>
        {account.role === "administrator" && (
          <li>
            <Link href={paths.settings(account.id)} current={route.name === "settings"}>
              Settings
            </Link>
          </li>
        )}
      </ul>
      <section class="views" aria-labelledby="views-title">
        <h2 id="views-title">Inbox views</h2>
        <p>Views by assignee, inbox, team and label appear here with the conversations API.</p>
      </section>
    </nav>
  );
}

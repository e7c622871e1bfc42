// The signed-in layout: header, sidebar, and the page the path names. The path's account decides
// what the sidebar offers: administrators see Settings, agents do not (they reach the one section
// open to them, Macros, from the conversation screen's Macros menu).
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { loadDirectory } from "../lib/directory.ts";
import { currentPath, navigate } from "../lib/router.ts";
import { parseRoute, paths, type Route } from "../lib/routes.ts";
import { type AccountMembership, followAccountLocale, type User } from "../lib/session.ts";
import { Header } from "./Header.tsx";
import { NotAllowed } from "./NotAllowed.tsx";
import { NotFound } from "./NotFound.tsx";
import { ContactPage } from "./contacts/ContactPage.tsx";
import { ContactsScreen } from "./contacts/ContactsScreen.tsx";
import { InboxScreen } from "./inbox/InboxScreen.tsx";
import { Page } from "./Page.tsx";
import { ProfileSettings } from "./ProfileSettings.tsx";
import { mayOpen, Settings } from "./Settings.tsx";
import { Sidebar } from "./Sidebar.tsx";
import { t } from "../lib/i18n.ts";

/** Where a path without an account (/app, /app/settings) leads: the same screen in the first account. */
function redirectFor(route: Route, first: AccountMembership | undefined): string | null {
  if (!first) return null;
  if (route.name === "home") return paths.dashboard(first.id);
  if (route.name === "settings" && route.accountId === null) return paths.settings(first.id);
  if (route.name === "settings" && route.section === null && route.accountId !== null)
    return paths.settings(route.accountId);
  return null;
}

function content(route: Route, account: AccountMembership | null) {
  if (route.name === "not-found") return <NotFound />;
  if (!account) return <NotFound message={t("app.not_member")} />;
  if (route.name === "settings") {
    return mayOpen(account, route.section) ? (
      <Settings account={account} section={route.section} itemId={route.itemId} />
    ) : (
      <NotAllowed account={account} />
    );
  }
  if (route.name === "profile") return <ProfileSettings />;
  if (route.name === "conversations")
    return <InboxScreen accountId={account.id} conversationId={route.conversationId} />;
  if (route.name === "contacts") {
    return route.contactId === null ? (
      <ContactsScreen account={account} />
    ) : (
      <ContactPage account={account} contactId={route.contactId} />
    );
  }
  return <NotFound />;
}

export function Shell({ user }: { user: User }) {
  const route = parseRoute(currentPath.value);
  const sidebarOpen = useSignal(false);
  const first = user.accounts[0];
  const redirect = redirectFor(route, first);
  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect]);
  useEffect(() => void (sidebarOpen.value = false), [currentPath.value]);

  // A path without an account shows the first one; a path naming an account the user is not in shows none.
  const accountId = "accountId" in route ? route.accountId : null;
  const account = accountId === null ? (first ?? null) : (user.accounts.find((a) => a.id === accountId) ?? null);
  // Every screen of an account reads its directory (names in lists, assignment and filter menus, rule
  // and webhook forms), so it loads here, whichever screen is opened first (a reload, a bookmark).
  useEffect(() => {
    if (!account) return;
    void loadDirectory(account.id).catch(() => undefined);
    void followAccountLocale(account.id).catch(() => undefined);
  }, [account?.id]);
  return (
    // The inbox fills the window and scrolls inside its panes; other pages scroll as a whole.
    <div class={route.name === "conversations" && account ? "shell fill" : "shell"}>
      <a class="skip-link" href="#main">
        {t("app.skip")}
      </a>
      <Header user={user} account={account} sidebarOpen={sidebarOpen} />
      <div class={account ? "body" : "body no-sidebar"}>
        {account && <Sidebar account={account} route={route} open={sidebarOpen.value} />}
        <main id="main" tabIndex={-1}>
          {!first ? (
            <Page title={t("app.no_account")}>
              <p>{t("app.no_account_text")}</p>
            </Page>
          ) : redirect ? null : (
            content(route, account)
          )}
        </main>
      </div>
    </div>
  );
}

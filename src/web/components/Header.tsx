// The bar across the top: the sidebar toggle (phones), the account, notifications, the profile menu.
import type { Signal } from "@preact/signals";
import { paths } from "../lib/routes.ts";
import type { AccountMembership, User } from "../lib/session.ts";
import { AccountSwitcher } from "./AccountSwitcher.tsx";
import { Link } from "./Link.tsx";
import { NotificationBell } from "./NotificationBell.tsx";
import { ProfileMenu } from "./ProfileMenu.tsx";
import { t } from "../lib/i18n.ts";

interface Props {
  user: User;
  account: AccountMembership | null;
  sidebarOpen: Signal<boolean>;
}

export function Header({ user, account, sidebarOpen }: Props) {
  return (
    <header class="topbar">
      {account && (
        <button
          type="button"
          class="menu-button"
          aria-expanded={sidebarOpen.value}
          aria-controls="sidebar"
          onClick={() => (sidebarOpen.value = !sidebarOpen.value)}
        >
          {t("header.menu")}
        </button>
      )}
      <Link href={account ? paths.dashboard(account.id) : "/app"} class="brand">
        Parley
      </Link>
      {account && <AccountSwitcher accounts={user.accounts} current={account} />}
      {account && <NotificationBell accountId={account.id} />}
      <ProfileMenu user={user} account={account} />
    </header>
  );
}

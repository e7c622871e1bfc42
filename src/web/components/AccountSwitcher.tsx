// The account in use, and the others this user belongs to (each a link to its conversations).
import { paths } from "../lib/routes.ts";
import type { AccountMembership } from "../lib/session.ts";
import { Disclosure } from "./Disclosure.tsx";
import { Link } from "./Link.tsx";
import { t } from "../lib/i18n.ts";

export function AccountSwitcher({ accounts, current }: { accounts: AccountMembership[]; current: AccountMembership }) {
  if (accounts.length < 2) return <span class="account-name">{current.name}</span>;
  return (
    <Disclosure
      id="account-panel"
      class="account-switcher"
      label={t("header.account", { name: current.name })}
      button={<span class="account-name">{current.name}</span>}
    >
      <ul>
        {accounts.map((a) => (
          <li key={a.id}>
            <Link href={paths.dashboard(a.id)} current={a.id === current.id}>
              {a.name}
            </Link>
          </li>
        ))}
      </ul>
    </Disclosure>
  );
}

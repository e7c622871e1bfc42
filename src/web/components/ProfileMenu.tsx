// The signed-in user, their role in this account, links to their profile and notification
// settings, the theme, and sign-out.
import { initials } from "../lib/format.ts";
import type { AccountMembership, User } from "../lib/session.ts";
import { signOut } from "../lib/session.ts";
import { chooseTheme, themeChoice, type ThemeChoice } from "../lib/theme.ts";
import { paths } from "../lib/routes.ts";
import { Disclosure } from "./Disclosure.tsx";
import { Link } from "./Link.tsx";
import { t } from "../lib/i18n.ts";

export function ProfileMenu({ user, account }: { user: User; account: AccountMembership | null }) {
  const button = (
    <>
      <span class="avatar" aria-hidden="true">
        {initials(user.available_name)}
      </span>
      <span class="profile-name">{user.available_name}</span>
      <span class="visually-hidden"> {t("profile.menu")}</span>
    </>
  );
  return (
    <Disclosure id="profile-panel" class="profile-menu" button={button}>
      <p class="profile-who">
        <strong>{user.available_name}</strong>
        <span>{user.email}</span>
        {account && (
          <span>
            {t(account.role === "administrator" ? "profile.administrator_of" : "profile.agent_of", {
              account: account.name,
            })}
          </span>
        )}
      </p>
      {account && (
        <>
          <Link href={paths.profile(account.id)} class="profile-link">
            {t("profile.settings")}
          </Link>
          <Link href={paths.settings(account.id, "notifications")} class="profile-link">
            {t("profile.notifications")}
          </Link>
        </>
      )}
      <label class="theme-choice">
        {t("profile.theme")}
        <select value={themeChoice.value} onChange={(e) => chooseTheme(e.currentTarget.value as ThemeChoice)}>
          <option value="system">{t("profile.theme_system")}</option>
          <option value="light">{t("profile.theme_light")}</option>
          <option value="dark">{t("profile.theme_dark")}</option>
        </select>
      </label>
      <button type="button" class="sign-out" onClick={() => void signOut()}>
        {t("profile.sign_out")}
      </button>
    </Disclosure>
  );
}

// The signed-in user, their role in this account, and sign-out.
import { initials } from "../lib/format.ts";
import type { AccountMembership, User } from "../lib/session.ts";
import { signOut } from "../lib/session.ts";
import { chooseTheme, themeChoice, type ThemeChoice } from "../lib/theme.ts";
import { Disclosure } from "./Disclosure.tsx";

export function ProfileMenu({ user, account }: { user: User; account: AccountMembership | null }) {
  const button = (
    <>
      <span class="avatar" aria-hidden="true">
        {initials(user.available_name)}
      </span>
      <span class="profile-name">{user.available_name}</span>
      <span class="visually-hidden"> (profile menu)</span>
    </>
  );
  return (
    <Disclosure id="profile-panel" class="profile-menu" button={button}>
      <p class="profile-who">
        <strong>{user.available_name}</strong>
        <span>{user.email}</span>
        {account && (
          <span>
            {account.role === "administrator" ? "Administrator" : "Agent"} of {account.name}
          </span>
        )}
      </p>
      <label class="theme-choice">
        Theme
        <select value={themeChoice.value} onChange={(e) => chooseTheme(e.currentTarget.value as ThemeChoice)}>
          <option value="system">Same as the system</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </label>
      <button type="button" class="sign-out" onClick={() => void signOut()}>
        Sign out
      </button>
    </Disclosure>
  );
}

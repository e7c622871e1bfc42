// Who is signed in. `session` is undefined while the app asks the server, null when signed out.
// The session cookie itself is httpOnly: this code never sees it, only the user and the CSRF token.
import { signal } from "@preact/signals";
import { ApiError, api, handleStaleCsrf, handleUnauthorized, setCsrfToken } from "./api.ts";
import { setLocale, t } from "./i18n.ts";

export interface AccountMembership {
  id: number;
  name: string;
  role: "administrator" | "agent";
  status: string;
}

export interface User {
  id: number;
  name: string;
  available_name: string;
  email: string;
  accounts: AccountMembership[];
  /** Added below their replies when they sign them. */
  message_signature?: string | null;
}

interface SessionResponse {
  data: User;
  csrf_token: string;
}

export const user = signal<User | null | undefined>(undefined);

/** Why the sign-in form is showing, when it is not the first visit. */
export const signedOutReason = signal<string | null>(null);

function accept(r: SessionResponse): void {
  setCsrfToken(r.csrf_token);
  signedOutReason.value = null;
  user.value = r.data;
}

function clear(reason: string | null): void {
  setCsrfToken(null);
  signedOutReason.value = reason;
  user.value = null;
}

handleUnauthorized(() => {
  if (user.value) clear(t("session.ended"));
});

handleStaleCsrf(() => loadSession());

export async function loadSession(): Promise<void> {
  try {
    accept(await api<SessionResponse>("GET", "/auth/session"));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) clear(null);
    else clear(error instanceof ApiError ? error.description : t("app.could_not_load"));
  }
}

export async function signIn(email: string, password: string): Promise<void> {
  accept(await api<SessionResponse>("POST", "/auth/sign_in", { email, password }));
}

/** Sets a new password with a mailed link's token; the server signs this browser in with it. */
export async function resetPassword(token: string, password: string): Promise<void> {
  accept(
    await api<SessionResponse>("PUT", "/auth/password", {
      reset_password_token: token,
      password,
      password_confirmation: password,
    }),
  );
}

export async function signOut(): Promise<void> {
  try {
    await api("DELETE", "/auth/sign_out");
  } finally {
    clear(t("session.signed_out"));
  }
}

/** The user as the server now has them, after a change of their own profile (name, email). */
export function profileChanged(changed: Pick<User, "name" | "available_name" | "email" | "message_signature">): void {
  const u = user.value;
  if (!u) return;
  const { name, available_name, email, message_signature } = changed;
  user.value = { ...u, name, available_name, email, message_signature };
}

/** Keeps the account's name in the header and switcher in step after it changes. */
export function accountRenamed(accountId: number, name: string): void {
  const u = user.value;
  if (!u) return;
  user.value = { ...u, accounts: u.accounts.map((a) => (a.id === accountId ? { ...a, name } : a)) };
}

let localeAsked = 0;

/** The screens speak the account's language (its `locale` setting); the latest account asked wins. */
export async function followAccountLocale(accountId: number): Promise<void> {
  const asked = ++localeAsked;
  const account = await api<{ locale: string }>("GET", `/api/v1/accounts/${accountId}`);
  if (asked === localeAsked) await setLocale(account.locale);
}

// The app's screens and their paths. Paths follow Chatwoot's web app (/app/accounts/1/dashboard,
// /app/accounts/1/conversations/42, /app/accounts/1/settings/inboxes) so that agents coming from it
// find their way.

export type Route =
  | { name: "home" }
  | { name: "conversations"; accountId: number; conversationId: number | null }
  | { name: "contacts"; accountId: number; contactId: number | null }
  | { name: "settings"; accountId: number | null; section: string | null; itemId: number | null }
  | { name: "profile"; accountId: number }
  | { name: "not-found" };

const NUMBER = /^\d+$/;

export function parseRoute(path: string): Route {
  const parts = path.replace(/\/+$/, "").split("/").slice(2); // drop "" and "app"
  if (parts.length === 0) return { name: "home" };
  if (parts[0] === "settings" && parts.length === 1)
    return { name: "settings", accountId: null, section: null, itemId: null };
  if (parts[0] !== "accounts" || !NUMBER.test(parts[1] ?? "")) return { name: "not-found" };
  const accountId = Number(parts[1]);
  const [page, sub, item, ...rest] = parts.slice(2);
  if (page === undefined || (page === "dashboard" && sub === undefined))
    return { name: "conversations", accountId, conversationId: null };
  if (page === "conversations" && sub !== undefined && NUMBER.test(sub) && item === undefined) {
    return { name: "conversations", accountId, conversationId: Number(sub) };
  }
  if (page === "contacts" && item === undefined && (sub === undefined || NUMBER.test(sub))) {
    return { name: "contacts", accountId, contactId: sub === undefined ? null : Number(sub) };
  }
  if (page === "profile" && sub === "settings" && item === undefined) return { name: "profile", accountId };
  if (page === "settings" && rest.length === 0 && (item === undefined || NUMBER.test(item))) {
    return { name: "settings", accountId, section: sub ?? null, itemId: item === undefined ? null : Number(item) };
  }
  return { name: "not-found" };
}

export const paths = {
  dashboard: (accountId: number) => `/app/accounts/${accountId}/dashboard`,
  conversation: (accountId: number, conversationId: number) =>
    `/app/accounts/${accountId}/conversations/${conversationId}`,
  contacts: (accountId: number, contactId?: number) =>
    `/app/accounts/${accountId}/contacts${contactId === undefined ? "" : `/${contactId}`}`,
  /** Chatwoot's path for the signed-in user's own settings. */
  profile: (accountId: number) => `/app/accounts/${accountId}/profile/settings`,
  settings: (accountId: number, section = "general", itemId?: number) =>
    `/app/accounts/${accountId}/settings/${section}${itemId === undefined ? "" : `/${itemId}`}`,
};

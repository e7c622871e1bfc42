// The app's screens and their paths. Paths follow Chatwoot's web app (/app/accounts/1/dashboard,
// /app/accounts/1/settings/general) so that agents coming from it find their way.

export type Route =
  | { name: "home" }
  | { name: "dashboard"; accountId: number }
  | { name: "settings"; accountId: number | null; section: string | null }
  | { name: "not-found" };

export function parseRoute(path: string): Route {
  const parts = path.replace(/\/+$/, "").split("/").slice(2); // drop "" and "app"
  if (parts.length === 0) return { name: "home" };
  if (parts[0] === "settings" && parts.length === 1) return { name: "settings", accountId: null, section: null };
  if (parts[0] !== "accounts" || !/^\d+$/.test(parts[1] ?? "")) return { name: "not-found" };
  const accountId = Number(parts[1]);
  const [page, section, ...rest] = parts.slice(2);
  if (page === undefined || (page === "dashboard" && section === undefined)) return { name: "dashboard", accountId };
  if (page === "settings" && rest.length === 0) return { name: "settings", accountId, section: section ?? null };
  return { name: "not-found" };
}

export const paths = {
  dashboard: (accountId: number) => `/app/accounts/${accountId}/dashboard`,
  settings: (accountId: number, section = "general") => `/app/accounts/${accountId}/settings/${section}`,
};

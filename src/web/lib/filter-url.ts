// The inbox's filters in the address bar, so a reload or a shared link shows the same list:
// /app/accounts/1/dashboard?tab=all&status=resolved&inbox=3&team=2&label=vip&q=refund&sort=priority.
// Defaults are left out (a plain /dashboard is "mine, open"); a value that makes no sense is read
// as the default rather than as an error, since people edit and truncate links.
import { DEFAULT_FILTERS, type AssigneeTab, type ListFilters } from "./list-merge.ts";
import { SORTS } from "./list-order.ts";
import type { ConversationStatus } from "./types.ts";

const TABS: readonly AssigneeTab[] = ["me", "unassigned", "all"];
const STATUSES: readonly (ConversationStatus | "all")[] = ["open", "resolved", "pending", "snoozed", "all"];

function id(value: string | null): number | null {
  return value !== null && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null;
}

function oneOf<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

export function filtersFromSearch(search: string): ListFilters {
  const p = new URLSearchParams(search);
  return {
    assignee: oneOf(p.get("tab"), TABS, DEFAULT_FILTERS.assignee),
    status: oneOf(p.get("status"), STATUSES, DEFAULT_FILTERS.status),
    inboxId: id(p.get("inbox")),
    teamId: id(p.get("team")),
    label: p.get("label") || null,
    q: p.get("q") ?? "",
    sort: oneOf(p.get("sort"), SORTS, DEFAULT_FILTERS.sort),
  };
}

/** The query string for the filters ("" for the defaults), with its "?". */
export function searchFromFilters(f: ListFilters): string {
  const p = new URLSearchParams();
  if (f.assignee !== DEFAULT_FILTERS.assignee) p.set("tab", f.assignee);
  if (f.status !== DEFAULT_FILTERS.status) p.set("status", f.status);
  if (f.inboxId !== null) p.set("inbox", String(f.inboxId));
  if (f.teamId !== null) p.set("team", String(f.teamId));
  if (f.label) p.set("label", f.label);
  if (f.q) p.set("q", f.q);
  if (f.sort !== DEFAULT_FILTERS.sort) p.set("sort", f.sort);
  const s = p.toString();
  return s ? `?${s}` : "";
}

export function sameFilters(a: ListFilters, b: ListFilters): boolean {
  return searchFromFilters(a) === searchFromFilters(b);
}

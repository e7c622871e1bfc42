// Pure rules of the inbox's lists: the conversation list's query string, how a fresh first page, a
// further page and a single changed conversation fold into what the screen shows; and the thread's
// messages. Every list comes out in the filters' order (list-order.ts), whatever it was made from.
import { compareIn, SORT_BY, sortConversations, type ListSort } from "./list-order.ts";
import type { Conversation, ConversationStatus, Counts, Message } from "./types.ts";

/** The server's page size (Chatwoot's CONVERSATION_RESULTS_PER_PAGE). */
export const PAGE_SIZE = 25;

export type AssigneeTab = "me" | "unassigned" | "all";

export interface ListFilters {
  assignee: AssigneeTab;
  status: ConversationStatus | "all";
  inboxId: number | null;
  teamId: number | null;
  label: string | null;
  q: string;
  sort: ListSort;
}

export const DEFAULT_FILTERS: ListFilters = {
  assignee: "me",
  status: "open",
  inboxId: null,
  teamId: null,
  label: null,
  q: "",
  sort: "latest",
};

export function queryString(f: ListFilters, page = 1): string {
  const p = new URLSearchParams({ assignee_type: f.assignee, status: f.status });
  if (f.inboxId !== null) p.set("inbox_id", String(f.inboxId));
  if (f.teamId !== null) p.set("team_id", String(f.teamId));
  if (f.label) p.append("labels[]", f.label);
  if (f.q.trim()) p.set("q", f.q.trim());
  if (f.sort !== "latest") p.set("sort_by", SORT_BY[f.sort]);
  if (page > 1) p.set("page", String(page));
  return p.toString();
}

/** How many conversations the tab holds in all (the server counts before the assignee filter). */
export function tabTotal(counts: Counts | null, tab: AssigneeTab): number | null {
  if (!counts) return null;
  return tab === "me" ? counts.mine_count : tab === "unassigned" ? counts.unassigned_count : counts.all_count;
}

/**
 * A fresh first page (in `sort`'s order, as the server answers the list's query) replaces the top
 * of the list. Conversations already shown further down stay (they belong to later pages), unless
 * they rank above the fresh page's last one: then they would be on it if they still matched the
 * filters, so they have left the list.
 */
export function mergeFirstPage(
  current: readonly Conversation[],
  fresh: readonly Conversation[],
  sort: ListSort,
): Conversation[] {
  if (fresh.length < PAGE_SIZE) return sortConversations(fresh, sort); // the whole list fits on the first page
  const onPage = new Set(fresh.map((c) => c.id));
  const last = fresh[fresh.length - 1]!;
  const before = compareIn(sort);
  return sortConversations([...fresh, ...current.filter((c) => !onPage.has(c.id) && before(last, c) < 0)], sort);
}

/**
 * A further page: offset paging repeats rows that moved down since the last load; keep one of each.
 * A row shown with older values (one changed here) takes its place among the page's rows.
 */
export function appendPage(
  current: readonly Conversation[],
  next: readonly Conversation[],
  sort: ListSort,
): Conversation[] {
  const shown = new Set(current.map((c) => c.id));
  return sortConversations([...current, ...next.filter((c) => !shown.has(c.id))], sort);
}

/**
 * A conversation changed here (opened, resolved, assigned, a new priority…): it moves to where the
 * list's order now puts it, or leaves when its status left the filter.
 */
export function replaceConversation(current: readonly Conversation[], c: Conversation, f: ListFilters): Conversation[] {
  if (!current.some((x) => x.id === c.id)) return current as Conversation[];
  if (f.status !== "all" && !f.q.trim() && c.status !== f.status) return current.filter((x) => x.id !== c.id);
  return sortConversations(
    current.map((x) => (x.id === c.id ? c : x)),
    f.sort,
  );
}

/**
 * The open conversation when the loaded pages do not hold it although its status is the list's (it
 * sits on a later page, or a link led to it): the list shows it on top so it stays in sight. One
 * whose status left the filter (resolved from an "open" list) leaves the list, as it always did.
 */
export function pinnedConversation(
  items: readonly Conversation[],
  open: Conversation | null | undefined,
  f: ListFilters,
): Conversation | null {
  if (!open || items.some((c) => c.id === open.id)) return null;
  return f.status === "all" || open.status === f.status ? open : null;
}

/** The conversation `step` places away from `currentId` in the list (the first one when none is open). */
export function neighbour(list: readonly Conversation[], currentId: number | null, step: 1 | -1): Conversation | null {
  if (list.length === 0) return null;
  const at = currentId === null ? -1 : list.findIndex((c) => c.id === currentId);
  if (at === -1) return list[0]!;
  return list[at + step] ?? null;
}

/** Messages in id order, each once: pages and live updates may overlap. */
export function mergeMessages(current: readonly Message[], more: readonly Message[]): Message[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of more) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * A thread's first page (the latest messages, ascending) with the live messages that came in while it
 * loaded. Those older than a full page are left out: an earlier opening of the same conversation
 * marks its incoming messages read, and their `message.updated` events (or a replay after the socket
 * reconnected) can arrive now; above the page they would show out of place, past a gap, and "Load
 * older messages" brings them in order. A short page is the whole thread, so nothing is older.
 */
export function firstPage(live: readonly Message[], page: readonly Message[], pageSize: number): Message[] {
  const oldest = page.length >= pageSize ? (page[0]?.id ?? 0) : 0;
  return mergeMessages(
    live.filter((m) => m.id >= oldest),
    page,
  );
}

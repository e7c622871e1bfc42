// The conversation list's orders: the server's sort_by choices (src/db/conversation-lists.repo.ts,
// ORDER_BY) and the same orders here, so that a conversation the list gains or changes between two
// loads goes where the server would put it, not on top.
import type { Conversation, Priority } from "./types.ts";

/** latest: newest activity first (the default); created: oldest conversation first;
 *  priority: urgent → none, then newest activity; waiting: longest waiting first, not waiting last. */
export type ListSort = "latest" | "created" | "priority" | "waiting";

export const SORTS: readonly ListSort[] = ["latest", "created", "priority", "waiting"];

/** The API's `sort_by` value of each order. */
export const SORT_BY: Record<ListSort, string> = {
  latest: "latest",
  created: "sort_on_created_at",
  priority: "sort_on_priority",
  waiting: "sort_on_waiting_since",
};

const RANK: Record<Priority, number> = { urgent: 4, high: 3, medium: 2, low: 1 };
const rank = (c: Conversation) => (c.priority ? (RANK[c.priority] ?? 0) : 0);
/** 0 (the API's "not waiting") and a missing value sort after every real time, as the server's NULL. */
const waiting = (c: Conversation) => c.waiting_since || Number.POSITIVE_INFINITY;

// Every order ends on the id, as the server's does (display ids grow with the account's internal
// ids), so two conversations never tie and the client and the server agree on every pair.
const byActivity = (a: Conversation, b: Conversation) => b.last_activity_at - a.last_activity_at || b.id - a.id;
const COMPARE: Record<ListSort, (a: Conversation, b: Conversation) => number> = {
  latest: byActivity,
  created: (a, b) => a.id - b.id,
  priority: (a, b) => rank(b) - rank(a) || byActivity(a, b),
  waiting: (a, b) => {
    const wa = waiting(a);
    const wb = waiting(b);
    return wa === wb ? a.id - b.id : wa < wb ? -1 : 1;
  },
};

/** Negative when `a` comes before `b` in the list sorted by `sort`. */
export function compareIn(sort: ListSort): (a: Conversation, b: Conversation) => number {
  return COMPARE[sort];
}

/** A sorted copy. */
export function sortConversations(list: readonly Conversation[], sort: ListSort): Conversation[] {
  return [...list].sort(COMPARE[sort]);
}

// The conversation list the inbox shows: its filters, the pages loaded so far and the counts.
// Never loads everything: page 1 (25) first, more on request, and live updates refresh page 1 only.
import { signal } from "@preact/signals";
import { ApiError, api } from "./api.ts";
import { filtersFromSearch } from "./filter-url.ts";
import {
  appendPage,
  DEFAULT_FILTERS,
  mergeFirstPage,
  queryString,
  replaceConversation,
  tabTotal,
  type ListFilters,
} from "./list-merge.ts";
import type { Conversation, ConversationPage, Counts } from "./types.ts";
import { t } from "./i18n.ts";

export interface ListState {
  accountId: number | null;
  /** The query string the items answer. */
  query: string;
  items: Conversation[];
  counts: Counts | null;
  pages: number;
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
}

const EMPTY: ListState = {
  accountId: null,
  query: "",
  items: [],
  counts: null,
  pages: 0,
  loading: false,
  loadingMore: false,
  error: null,
};

// A reload or a shared link starts from the filters in the address.
export const filters = signal<ListFilters>(
  typeof location === "undefined" ? DEFAULT_FILTERS : filtersFromSearch(location.search),
);
export const list = signal<ListState>(EMPTY);

const base = (accountId: number) => `/api/v1/accounts/${accountId}/conversations`;
const describe = (e: unknown) => (e instanceof ApiError ? e.description : t("list.load_failed"));

export function setFilters(change: Partial<ListFilters>): void {
  filters.value = { ...filters.value, ...change };
}

/** Loads page 1 for the current filters (the screen calls it when the account or a filter changes). */
export async function loadList(accountId: number): Promise<void> {
  // Another account: its inboxes, teams and labels differ, so the filters start over.
  if (list.value.accountId !== null && list.value.accountId !== accountId) filters.value = DEFAULT_FILTERS;
  const query = queryString(filters.value);
  if (list.value.accountId === accountId && list.value.query === query && list.value.loading) return; // already asked
  const keep = list.value.accountId === accountId ? list.value : EMPTY;
  list.value = { ...keep, accountId, query, loading: true, error: null };
  try {
    const page = await api<ConversationPage>("GET", `${base(accountId)}?${query}`);
    if (list.value.query !== query || list.value.accountId !== accountId) return; // the filters moved on
    list.value = { ...list.value, items: page.data.payload, counts: page.data.meta, pages: 1, loading: false };
  } catch (e) {
    if (list.value.query === query) list.value = { ...list.value, loading: false, error: describe(e) };
  }
}

export async function loadMore(): Promise<void> {
  const s = list.value;
  if (s.accountId === null || s.loadingMore || !hasMore()) return;
  list.value = { ...s, loadingMore: true, error: null };
  try {
    const page = await api<ConversationPage>("GET", `${base(s.accountId)}?${queryString(filters.value, s.pages + 1)}`);
    if (list.value.query !== s.query) return;
    list.value = {
      ...list.value,
      items: appendPage(list.value.items, page.data.payload, filters.value.sort),
      counts: page.data.meta,
      pages: s.pages + 1,
      loadingMore: false,
    };
  } catch (e) {
    list.value = { ...list.value, loadingMore: false, error: describe(e) };
  }
}

export function hasMore(): boolean {
  const s = list.value;
  const total = tabTotal(s.counts, filters.value.assignee);
  return total !== null && s.items.length < total;
}

let lastLivePage = "";

/** A fresh page 1 from the live feed. */
export function applyFirstPage(page: ConversationPage, query: string): void {
  const s = list.value;
  if (s.query !== query || s.loading) return;
  const text = JSON.stringify(page);
  if (text === lastLivePage) return; // nothing changed since the last look: no re-render
  lastLivePage = text;
  list.value = {
    ...s,
    items: mergeFirstPage(s.items, page.data.payload, filters.value.sort),
    counts: page.data.meta,
    pages: Math.max(1, s.pages),
  };
}

/** A conversation changed on this screen (opened, replied to, resolved…). */
export function conversationChanged(c: Conversation): void {
  const s = list.value;
  const items = replaceConversation(s.items, c, filters.value);
  if (items !== s.items) list.value = { ...s, items };
}

export function currentQuery(): string {
  return list.value.query || queryString(filters.value);
}

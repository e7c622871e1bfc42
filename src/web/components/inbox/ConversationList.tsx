// The list of conversations for the filters: the pages loaded so far, a button for the next page,
// and what is going on (loading, nothing matches, updates paused) in a polite live region.
import { filters, hasMore, list, loadMore } from "../../lib/conversation-list.ts";
import { pinnedConversation, tabTotal } from "../../lib/list-merge.ts";
import { live } from "../../lib/live.ts";
import { thread } from "../../lib/thread.ts";
import { ConversationItem } from "./ConversationItem.tsx";
import { t } from "../../lib/i18n.ts";

function emptyText(): string {
  const f = filters.value;
  if (f.q.trim()) return t("list.empty_search", { q: f.q.trim() });
  if (f.assignee === "me") return t("list.empty_mine");
  return t("list.empty");
}

export function ConversationList({ accountId, selectedId }: { accountId: number; selectedId: number | null }) {
  const s = list.value;
  const total = tabTotal(s.counts, filters.value.assignee);
  const open = thread.value?.conversation;
  const pinned = !s.loading && open?.id === selectedId ? pinnedConversation(s.items, open, filters.value) : null;
  const status =
    s.loading && s.items.length === 0 ? t("list.loading") : live.status.value === "offline" ? t("list.offline") : "";
  return (
    <div class="conversation-list">
      <p class="list-status" role="status">
        {status}
      </p>
      {s.error && (
        <p class="alert" role="alert">
          {s.error}
        </p>
      )}
      {pinned && (
        <ul class="pinned" aria-label={t("list.open")}>
          <ConversationItem accountId={accountId} conversation={pinned} selected />
        </ul>
      )}
      {!s.loading && !s.error && s.items.length === 0 && <p class="list-empty">{emptyText()}</p>}
      {s.items.length > 0 && (
        <ul
          aria-label={total === null ? t("list.label") : t("list.label_count", { shown: s.items.length, total })}
          aria-busy={s.loading}
        >
          {s.items.map((c) => (
            <ConversationItem key={c.id} accountId={accountId} conversation={c} selected={c.id === selectedId} />
          ))}
        </ul>
      )}
      {hasMore() && (
        <button
          type="button"
          class="load-more"
          onClick={() => void loadMore()}
          aria-disabled={s.loadingMore ? "true" : undefined}
        >
          {s.loadingMore ? t("common.loading") : t("list.more", { shown: s.items.length, total: total ?? "?" })}
        </button>
      )}
    </div>
  );
}

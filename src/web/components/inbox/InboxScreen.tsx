// The conversations screen: the list with its filters, the open conversation, and its details.
// Wide screens show them side by side; phones show one at a time (the list, or the conversation,
// or its details). Live updates and keyboard shortcuts are wired here.
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { announcement } from "../../lib/announce.ts";
import { applyFirstPage, currentQuery, filters, list, loadList } from "../../lib/conversation-list.ts";
import { loadDashboardApps } from "../../lib/dashboard-apps.ts";
import { filtersFromSearch, sameFilters, searchFromFilters } from "../../lib/filter-url.ts";
import { queryString } from "../../lib/list-merge.ts";
import { live } from "../../lib/live.ts";
import { currentSearch, navigated, replaceSearch } from "../../lib/router.ts";
import { addMessages, closeThread, lastMessageId, openThread, setConversation, thread } from "../../lib/thread.ts";
import { watchTyping } from "../../lib/typing.ts";
import { useInboxShortcuts } from "./useInboxShortcuts.ts";
import { ConversationFilters } from "./ConversationFilters.tsx";
import { ConversationList } from "./ConversationList.tsx";
import { ConversationView, THREAD_HEADING_ID } from "./ConversationView.tsx";
import { DetailsPanel } from "./DetailsPanel.tsx";
import { ShortcutsDialog } from "./ShortcutsDialog.tsx";
import { screenTitle } from "../../lib/title.ts";
import { locale, t } from "../../lib/i18n.ts";

const isPhone = () => window.matchMedia("(max-width: 767px)").matches;

export function InboxScreen({ accountId, conversationId }: { accountId: number; conversationId: number | null }) {
  const detailsOpen = useSignal(window.matchMedia("(min-width: 1200px)").matches);
  const helpOpen = useSignal(false);
  const query = queryString(filters.value);

  useEffect(() => void loadList(accountId), [accountId, query]);
  // Read on each visit: an app added or removed in Settings shows when the agent comes back here.
  useEffect(() => void loadDashboardApps(accountId), [accountId]);
  // The filters live in the address. Going back or forward to an address with other filters shows
  // those (first, so that the next effect writes what the address says); a change of filters writes
  // them there without a new history entry.
  // The address this screen wrote last: when it comes back through currentSearch it is our own echo,
  // not a navigation, and must not put back filters the user has changed again since it was written.
  const written = useRef<string | null>(null);
  useEffect(() => {
    if (currentSearch.value === written.current) return;
    const wanted = filtersFromSearch(currentSearch.value);
    if (!sameFilters(wanted, filters.peek())) filters.value = wanted;
  }, [currentSearch.value]);
  useEffect(() => {
    written.current = searchFromFilters(filters.value);
    replaceSearch(written.current);
  }, [query, conversationId]);
  // A search reads every message of the account (~0.3–0.9 s at 100,000 conversations): its results
  // are not polled again; changing the search asks again.
  useEffect(
    () => live.watchList(accountId, () => (filters.peek().q.trim() ? null : currentQuery()), applyFirstPage),
    [accountId],
  );

  useEffect(() => {
    watchTyping(conversationId);
    if (conversationId === null) return closeThread();
    void openThread(accountId, conversationId);
    if (isPhone()) detailsOpen.value = false;
    return live.watchConversation(accountId, conversationId, {
      lastMessageId,
      onConversation: setConversation,
      onMessages: addMessages,
    });
  }, [accountId, conversationId]);

  // Arriving from another screen, the list's heading takes focus (as Page does for other screens).
  useEffect(() => {
    if (navigated.peek() && conversationId === null) document.getElementById("list-title")?.focus();
  }, []);

  // Phones show one pane at a time: after a move, focus goes to the heading of the pane that shows.
  useEffect(() => {
    if (!navigated.peek() || !isPhone()) return;
    document.getElementById(conversationId === null ? "list-title" : THREAD_HEADING_ID)?.focus();
  }, [conversationId, thread.value?.conversation?.id]);

  const contact = thread.value?.conversation?.meta.sender.name;
  useEffect(() => {
    screenTitle.value =
      conversationId !== null && contact ? t("inbox.page_title_contact", { contact }) : t("inbox.page_title");
  }, [conversationId, contact, locale.value]);

  useInboxShortcuts(accountId, helpOpen);

  const classes = [
    "inbox",
    conversationId !== null ? "has-thread" : "",
    conversationId !== null && detailsOpen.value ? "has-details" : "",
  ];
  return (
    <div class={classes.join(" ").trim()}>
      <section class="list-pane" aria-labelledby="list-title">
        <div class="list-head">
          <h1 id="list-title" tabIndex={-1}>
            {t("inbox.title")}
          </h1>
          <button type="button" class="help-button" aria-haspopup="dialog" onClick={() => (helpOpen.value = true)}>
            <span aria-hidden="true">?</span>
            <span class="visually-hidden">{t("inbox.shortcuts")}</span>
          </button>
        </div>
        <ConversationFilters />
        <ConversationList accountId={accountId} selectedId={conversationId} />
      </section>
      <section
        class="thread-pane"
        aria-labelledby={conversationId !== null && thread.value?.conversation ? THREAD_HEADING_ID : undefined}
        aria-label={conversationId === null ? t("inbox.pane") : undefined}
      >
        {conversationId === null ? (
          <div class="thread-empty">
            <p>{list.value.items.length > 0 ? t("inbox.choose") : t("inbox.waiting")}</p>
            <p class="hint">
              {t("inbox.press_before")} <kbd>?</kbd> {t("inbox.press_after")}
            </p>
          </div>
        ) : (
          <ConversationView accountId={accountId} detailsOpen={detailsOpen} />
        )}
      </section>
      {conversationId !== null && <DetailsPanel accountId={accountId} open={detailsOpen} />}
      <ShortcutsDialog open={helpOpen} />
      <p class="visually-hidden" role="status">
        {announcement.value}
      </p>
    </div>
  );
}

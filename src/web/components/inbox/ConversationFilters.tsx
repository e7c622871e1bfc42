// The list's filters: Mine / Unassigned / All with their counts (tabs), then status, inbox, team,
// label, a search over message text, and the list's order (a row of its own). Search waits for a
// pause in typing before it asks.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { filters, list, setFilters } from "../../lib/conversation-list.ts";
import { directory } from "../../lib/directory.ts";
import type { AssigneeTab } from "../../lib/list-merge.ts";
import type { ListSort } from "../../lib/list-order.ts";
import type { Counts } from "../../lib/types.ts";
import { Options } from "../Options.tsx";
import { FilterSelect } from "./FilterSelect.tsx";
import { type Key, t } from "../../lib/i18n.ts";

const TABS: { key: AssigneeTab; label: Key; count: keyof Counts }[] = [
  { key: "me", label: "filters.mine", count: "mine_count" },
  { key: "unassigned", label: "filters.unassigned", count: "unassigned_count" },
  { key: "all", label: "filters.all", count: "all_count" },
];

const STATUSES = [
  ["open", "status.open"],
  ["pending", "status.pending"],
  ["snoozed", "status.snoozed"],
  ["resolved", "status.resolved"],
  ["all", "filters.all_statuses"],
] as const;

const SORTS: readonly (readonly [ListSort, Key])[] = [
  ["latest", "filters.sort_latest"],
  ["created", "filters.sort_created"],
  ["priority", "filters.sort_priority"],
  ["waiting", "filters.sort_waiting"],
];

const idOrNull = (v: string) => (v === "" ? null : Number(v));

export function ConversationFilters() {
  const f = filters.value;
  const counts = list.value.counts;
  const dir = directory.value;
  const searching = f.q.trim() !== "";
  const search = useSignal(f.q);
  useEffect(() => {
    const timer = setTimeout(
      () => search.value.trim() !== filters.peek().q.trim() && setFilters({ q: search.value }),
      350,
    );
    return () => clearTimeout(timer);
  }, [search.value]);
  // Labels from the account's label list, and any seen on the conversations shown.
  const labels = [
    ...new Set([...(dir?.labels ?? []), ...list.value.items.flatMap((c) => c.labels), ...(f.label ? [f.label] : [])]),
  ].sort();

  return (
    <div class="filters">
      <div class="assignee-tabs" role="group" aria-label={t("filters.assigned_to")}>
        {TABS.map((tab) => (
          <button
            key={tab.key}
            type="button"
            class="tab-button"
            aria-pressed={f.assignee === tab.key}
            onClick={() => setFilters({ assignee: tab.key })}
          >
            {t(tab.label)}
            <span class="count">{counts ? counts[tab.count] : "…"}</span>
          </button>
        ))}
      </div>
      <form class="search" role="search" onSubmit={(e) => (e.preventDefault(), setFilters({ q: search.value }))}>
        <label for="conversation-search" class="visually-hidden">
          {t("filters.search")}
        </label>
        <input
          id="conversation-search"
          type="search"
          placeholder={t("filters.search_placeholder")}
          value={search.value}
          onInput={(e) => (search.value = e.currentTarget.value)}
        />
      </form>
      <div class="filter-selects">
        <FilterSelect
          id="filter-status"
          label={t("filters.status")}
          value={f.status}
          onChange={(v) => setFilters({ status: v as typeof f.status })}
          disabled={searching}
          title={searching ? t("filters.search_every_status") : undefined}
        >
          <Options items={STATUSES.map(([value, key]) => [value, t(key)] as const)} />
        </FilterSelect>
        <FilterSelect
          id="filter-inbox"
          label={t("filters.inbox")}
          value={f.inboxId ?? ""}
          onChange={(v) => setFilters({ inboxId: idOrNull(v) })}
        >
          <option value="">{t("filters.all_inboxes")}</option>
          <Options items={dir?.inboxes.map((i) => [i.id, i.name] as const)} />
        </FilterSelect>
        <FilterSelect
          id="filter-team"
          label={t("filters.team")}
          value={f.teamId ?? ""}
          onChange={(v) => setFilters({ teamId: idOrNull(v) })}
        >
          <option value="">{t("filters.all_teams")}</option>
          <Options items={dir?.teams.map((team) => [team.id, team.name] as const)} />
        </FilterSelect>
        <FilterSelect
          id="filter-label"
          label={t("filters.label")}
          value={f.label ?? ""}
          onChange={(v) => setFilters({ label: v || null })}
        >
          <option value="">{t("filters.all_labels")}</option>
          <Options items={labels.map((l) => [l, l] as const)} />
        </FilterSelect>
        <FilterSelect
          id="filter-sort"
          class="filter-sort"
          label={t("filters.sort")}
          value={f.sort}
          onChange={(v) => setFilters({ sort: v as ListSort })}
        >
          <Options items={SORTS.map(([value, key]) => [value, t(key)] as const)} />
        </FilterSelect>
      </div>
    </div>
  );
}

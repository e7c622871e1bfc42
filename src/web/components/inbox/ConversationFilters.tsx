// The list's filters: Mine / Unassigned / All with their counts (tabs), then status, inbox, team,
// label and a search over message text. Search waits for a pause in typing before it asks.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { filters, list, setFilters } from "../../lib/conversation-list.ts";
import { directory } from "../../lib/directory.ts";
import type { AssigneeTab } from "../../lib/list-merge.ts";
import type { Counts } from "../../lib/types.ts";
import { Options } from "../Options.tsx";
import { FilterSelect } from "./FilterSelect.tsx";

const TABS: { key: AssigneeTab; label: string; count: keyof Counts }[] = [
  { key: "me", label: "Mine", count: "mine_count" },
  { key: "unassigned", label: "Unassigned", count: "unassigned_count" },
  { key: "all", label: "All", count: "all_count" },
];

const STATUSES = [
  ["open", "Open"],
  ["pending", "Pending"],
  ["snoozed", "Snoozed"],
  ["resolved", "Resolved"],
  ["all", "All statuses"],
] as const;

const idOrNull = (v: string) => (v === "" ? null : Number(v));

export function ConversationFilters() {
  const f = filters.value;
  const counts = list.value.counts;
  const dir = directory.value;
  const searching = f.q.trim() !== "";
  const search = useSignal(f.q);
  useEffect(() => {
    const t = setTimeout(() => search.value.trim() !== filters.peek().q.trim() && setFilters({ q: search.value }), 350);
    return () => clearTimeout(t);
  }, [search.value]);
  // Labels from the account's label list, and any seen on the conversations shown.
  const labels = [
    ...new Set([...(dir?.labels ?? []), ...list.value.items.flatMap((c) => c.labels), ...(f.label ? [f.label] : [])]),
  ].sort();

  return (
    <div class="filters">
      <div class="assignee-tabs" role="group" aria-label="Assigned to">
        {TABS.map((t) => (
          <button
            key={t.key}
            type="button"
            class="tab-button"
            aria-pressed={f.assignee === t.key}
            onClick={() => setFilters({ assignee: t.key })}
          >
            {t.label}
            <span class="count">{counts ? counts[t.count] : "…"}</span>
          </button>
        ))}
      </div>
      <form class="search" role="search" onSubmit={(e) => (e.preventDefault(), setFilters({ q: search.value }))}>
        <label for="conversation-search" class="visually-hidden">
          Search messages
        </label>
        <input
          id="conversation-search"
          type="search"
          placeholder="Messages, or a contact's name, email or phone"
          value={search.value}
          onInput={(e) => (search.value = e.currentTarget.value)}
        />
      </form>
      <div class="filter-selects">
        <FilterSelect
          id="filter-status"
          label="Status"
          value={f.status}
          onChange={(v) => setFilters({ status: v as typeof f.status })}
          disabled={searching}
          title={searching ? "Search looks in every status" : undefined}
        >
          <Options items={STATUSES} />
        </FilterSelect>
        <FilterSelect
          id="filter-inbox"
          label="Inbox"
          value={f.inboxId ?? ""}
          onChange={(v) => setFilters({ inboxId: idOrNull(v) })}
        >
          <option value="">All inboxes</option>
          <Options items={dir?.inboxes.map((i) => [i.id, i.name] as const)} />
        </FilterSelect>
        <FilterSelect
          id="filter-team"
          label="Team"
          value={f.teamId ?? ""}
          onChange={(v) => setFilters({ teamId: idOrNull(v) })}
        >
          <option value="">All teams</option>
          <Options items={dir?.teams.map((t) => [t.id, t.name] as const)} />
        </FilterSelect>
        <FilterSelect
          id="filter-label"
          label="Label"
          value={f.label ?? ""}
          onChange={(v) => setFilters({ label: v || null })}
        >
          <option value="">All labels</option>
          <Options items={labels.map((l) => [l, l] as const)} />
        </FilterSelect>
      </div>
    </div>
  );
}

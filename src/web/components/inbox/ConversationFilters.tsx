// The list's filters: Mine / Unassigned / All with their counts (tabs), then status, inbox, team,
// label and a search over message text. Search waits for a pause in typing before it asks.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { filters, list, setFilters } from "../../lib/conversation-list.ts";
import { directory } from "../../lib/directory.ts";
import type { AssigneeTab } from "../../lib/list-merge.ts";
import type { Counts } from "../../lib/types.ts";

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
  const search = useSignal(f.q);
  useEffect(() => {
    const t = setTimeout(() => search.value.trim() !== filters.peek().q.trim() && setFilters({ q: search.value }), 350);
    return () => clearTimeout(t);
  }, [search.value]);
  // Labels from the account's label list, and any seen on the conversations shown.
  const labels = [...new Set([...(dir?.labels ?? []), ...list.value.items.flatMap((c) => c.labels), ...(f.label ? [f.label] : [])])].sort();

  return (
    <div class="filters">
      <div class="assignee-tabs" role="group" aria-label="Assigned to">
        {TABS.map((t) => (
          <button key={t.key} type="button" class="tab-button" aria-pressed={f.assignee === t.key} onClick={() => setFilters({ assignee: t.key })}>
            {t.label}
            <span class="count">{counts ? counts[t.count] : "…"}</span>
          </button>
        ))}
      </div>
      <form class="search" role="search" onSubmit={(e) => (e.preventDefault(), setFilters({ q: search.value }))}>
        <label for="conversation-search" class="visually-hidden">
          Search messages
        </label>
        <input id="conversation-search" type="search" placeholder="Search messages" value={search.value} onInput={(e) => (search.value = e.currentTarget.value)} />
      </form>
      <div class="filter-selects">
        <div>
          <label for="filter-status" class="visually-hidden">
            Status
          </label>
          <select id="filter-status" value={f.status} onChange={(e) => setFilters({ status: e.currentTarget.value as typeof f.status })} disabled={f.q.trim() !== ""} title={f.q.trim() ? "Search looks in every status" : undefined}>
            {STATUSES.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="filter-inbox" class="visually-hidden">
            Inbox
          </label>
          <select id="filter-inbox" value={f.inboxId ?? ""} onChange={(e) => setFilters({ inboxId: idOrNull(e.currentTarget.value) })}>
            <option value="">All inboxes</option>
            {dir?.inboxes.map((i) => (
              <option key={i.id} value={i.id}>
                {i.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="filter-team" class="visually-hidden">
            Team
          </label>
          <select id="filter-team" value={f.teamId ?? ""} onChange={(e) => setFilters({ teamId: idOrNull(e.currentTarget.value) })}>
            <option value="">All teams</option>
            {dir?.teams.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="filter-label" class="visually-hidden">
            Label
          </label>
          <select id="filter-label" value={f.label ?? ""} onChange={(e) => setFilters({ label: e.currentTarget.value || null })}>
            <option value="">All labels</option>
            {labels.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </div>
      </div>
    </div>
  );
}

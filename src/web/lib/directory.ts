// The account's agents, teams, inboxes and labels: what filters, assignment menus and names need.
// Loaded once per account (small lists), refreshed after a settings change.
import { signal } from "@preact/signals";
import { ApiError, api } from "./api.ts";
import type { Agent, Inbox, Team } from "./types.ts";
import { t } from "./i18n.ts";

export interface Directory {
  accountId: number;
  agents: Agent[];
  teams: Team[];
  inboxes: Inbox[];
  /** The account's label titles (GET /labels, issue 7); empty where the server has no label list yet. */
  labels: string[];
}

export const directory = signal<Directory | null>(null);

let loading: { accountId: number; promise: Promise<void> } | null = null;

async function labelTitles(accountId: number): Promise<string[]> {
  try {
    const r = await api<{ payload: { title: string }[] }>("GET", `/api/v1/accounts/${accountId}/labels`);
    return r.payload.map((l) => l.title);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return []; // no label list on this server yet
    throw error;
  }
}

export function loadDirectory(accountId: number, force = false): Promise<void> {
  if (!force && directory.value?.accountId === accountId) return Promise.resolve();
  if (!force && loading?.accountId === accountId) return loading.promise;
  const base = `/api/v1/accounts/${accountId}`;
  const promise = Promise.all([
    api<Agent[]>("GET", `${base}/agents`),
    api<Team[]>("GET", `${base}/teams`),
    api<{ payload: Inbox[] }>("GET", `${base}/inboxes`),
    labelTitles(accountId),
  ])
    .then(([agents, teams, inboxes, labels]) => {
      directory.value = { accountId, agents, teams, inboxes: inboxes.payload, labels };
    })
    .finally(() => {
      if (loading?.promise === promise) loading = null;
    });
  loading = { accountId, promise };
  return promise;
}

export function inboxName(inboxId: number): string {
  return directory.value?.inboxes.find((i) => i.id === inboxId)?.name ?? t("reports.inbox_n", { id: inboxId });
}

const members = new Map<string, Promise<Agent[]>>();

/**
 * Who a conversation of this inbox can be assigned to: its member agents and every administrator
 * (the server's rule). Falls back to all agents when the members cannot be listed.
 */
export function assignableAgents(accountId: number, inboxId: number): Promise<Agent[]> {
  const key = `${accountId}/${inboxId}`;
  let p = members.get(key);
  if (!p) {
    p = loadDirectory(accountId)
      .then(() => api<{ payload: Agent[] }>("GET", `/api/v1/accounts/${accountId}/inbox_members/${inboxId}`))
      .then(
        (r) => {
          const all = directory.value?.agents ?? [];
          const ids = new Set(r.payload.map((a) => a.id));
          return all.filter((a) => a.role === "administrator" || ids.has(a.id));
        },
        () => {
          members.delete(key); // ask again next time
          return directory.value?.agents ?? [];
        },
      );
    members.set(key, p);
  }
  return p;
}

/** After inbox memberships change in settings. */
export function forgetInboxMembers(): void {
  members.clear();
}

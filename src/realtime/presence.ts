// Who is connected, per account: an agent or contact is online while at least one of their
// subscriptions to that account is open. In memory only — a restart makes everyone offline until
// their clients reconnect, which they do within seconds. With auto_offline on, an agent's
// availability_status follows this (presenters' availabilityStatus(m, online)). Several processes
// on PostgreSQL: who is online through the others comes from src/realtime/shared-presence.ts.
import type { AccountMember } from "../db/realtime.repo.ts";
import { availabilityStatus } from "../domain/presenters/user.presenter.ts";
import type { LocalState, SharedPresence } from "./shared-presence.ts";

type Counts = Map<number, Map<number, number>>;

function bump(counts: Counts, accountId: number, id: number, by: 1 | -1): boolean {
  let perAccount = counts.get(accountId);
  if (!perAccount) counts.set(accountId, (perAccount = new Map()));
  const n = (perAccount.get(id) ?? 0) + by;
  if (n > 0) perAccount.set(id, n);
  else {
    perAccount.delete(id);
    if (perAccount.size === 0) counts.delete(accountId);
  }
  return by === 1 ? n === 1 : n === 0;
}

export class Presence {
  private readonly users: Counts = new Map();
  private readonly contacts: Counts = new Map();
  private shared: SharedPresence | null = null;

  /** From now on, who is online through the other processes counts too, and they hear of changes here. */
  share(shared: SharedPresence): void {
    this.shared = shared;
  }

  /** Counts one more subscription; true when that made them online. */
  join(kind: "user" | "contact", accountId: number, id: number): boolean {
    const changed = bump(kind === "user" ? this.users : this.contacts, accountId, id, 1);
    if (changed) this.shared?.local(kind, accountId, id, true);
    return changed;
  }

  /** Counts one subscription fewer; true when that made them offline. */
  leave(kind: "user" | "contact", accountId: number, id: number): boolean {
    const changed = bump(kind === "user" ? this.users : this.contacts, accountId, id, -1);
    if (changed) this.shared?.local(kind, accountId, id, false);
    return changed;
  }

  isOnline(accountId: number, userId: number): boolean {
    return (
      (this.users.get(accountId)?.has(userId) ?? false) || (this.shared?.isOnline("user", accountId, userId) ?? false)
    );
  }

  /** Who is online through this process's own sockets, for a process that asks (shared-presence.ts). */
  *localState(): Iterable<LocalState> {
    for (const [kind, counts] of [
      ["user", this.users],
      ["contact", this.contacts],
    ] as const)
      for (const [accountId, ids] of counts) yield { kind, accountId, ids: [...ids.keys()] };
  }

  /** Chatwoot's presence.update data: available agents by id (with their status) and connected contacts. */
  snapshot(accountId: number, members: Map<number, AccountMember>, withContacts: boolean) {
    const users: Record<string, string> = {};
    for (const m of members.values()) {
      const status = availabilityStatus(m, this.isOnline(accountId, m.user_id));
      if (status !== "offline") users[m.user_id] = status;
    }
    const data: { account_id: number; users: Record<string, string>; contacts?: Record<string, string> } = {
      account_id: accountId,
      users,
    };
    if (withContacts) {
      data.contacts = {};
      for (const id of this.contacts.get(accountId)?.keys() ?? []) data.contacts[id] = "online";
      for (const id of this.shared?.onlineIds("contact", accountId) ?? []) data.contacts[id] = "online";
    }
    return data;
  }
}

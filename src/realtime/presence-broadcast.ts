// presence.update on the stream (Chatwoot's): who of an account is online, sent to its subscribers
// when someone comes or goes — at most once per `delayMs` per account, so a reconnect storm is one
// update, not N² — and to one subscription when its client asks (RoomChannel#update_presence).
// Agents hear agents and contacts; contacts hear agents only.
import type { RealtimeRepo } from "../db/realtime.repo.ts";
import { readSoon } from "../db/reads.ts";
import { whenReady } from "../lib/when-ready.ts";
import { messageFrame } from "../shared/cable-frames.ts";
import type { Connection, Subscription } from "./connection.ts";
import type { Presence } from "./presence.ts";

export interface PresenceBroadcastDeps {
  realtime: RealtimeRepo;
  presence: Presence;
  delayMs: number;
  subscriptionsOf(accountId: number): Iterable<Subscription>;
  send(conn: Connection, data: string): void;
  /** Runs timer work so that a failure is logged, never thrown (a promise's failure too). */
  safely(what: string, fn: () => void | Promise<void>): void;
}

export class PresenceBroadcast {
  private readonly dirty = new Set<number>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly d: PresenceBroadcastDeps) {}

  /** Someone in the account came or went: its subscribers hear of it after the delay. */
  changed(accountId: number): void {
    this.dirty.add(accountId);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      const accounts = [...this.dirty];
      this.dirty.clear();
      for (const id of accounts) this.d.safely("presence", () => this.sendTo([...this.d.subscriptionsOf(id)], id));
    }, this.d.delayMs);
  }

  /** On PostgreSQL the account's members are read on the read pool: a promise of the frames' sending. */
  sendTo(subs: Subscription[], accountId: number): void | Promise<void> {
    if (subs.length === 0) return;
    return whenReady(readSoon(this.d.realtime.readAccountMembers(accountId)), (members) => {
      const json = (withContacts: boolean) =>
        JSON.stringify({ event: "presence.update", data: this.d.presence.snapshot(accountId, members, withContacts) });
      let forAgents: string | null = null;
      let forContacts: string | null = null;
      for (const sub of subs) {
        if (sub.conn.closed) continue; // gone while the members were read
        if (sub.viewer.kind === "user" && !members.has(sub.viewer.userId)) continue;
        const body = sub.viewer.kind === "user" ? (forAgents ??= json(true)) : (forContacts ??= json(false));
        this.d.send(sub.conn, messageFrame(sub.identifierJson, body));
      }
    });
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

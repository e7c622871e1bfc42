// The hub's subscriptions: what a socket's subscribe, unsubscribe and perform commands do, and the
// per-account index of live subscriptions they keep (the fan-out, presence and tellUser read it).
// Apart from src/realtime/hub.ts, which owns the sockets themselves: their opening, heartbeat,
// sending and closing.
import { errorFields, type Logger } from "../lib/logger.ts";
import { confirmFrame, parseIdentifier, rejectFrame } from "../shared/cable-frames.ts";
import type { Connection, HubLimits, Subscription } from "./connection.ts";
import type { EventFeed } from "./feed.ts";
import type { CableIdentity, SubscriptionRequest } from "./identify.ts";
import type { LiveFanOut } from "./live-fanout.ts";
import type { Presence } from "./presence.ts";
import type { PresenceBroadcast } from "./presence-broadcast.ts";
import type { Streams } from "./replay.ts";

export interface SubscriptionsDeps {
  identity: CableIdentity;
  feed: EventFeed;
  presence: Presence;
  logger: Logger;
  limits: HubLimits;
  live: LiveFanOut;
  streams: Streams;
  presenceBroadcast: PresenceBroadcast;
  /** The hub's send: false when the socket is gone. */
  send(conn: Connection, data: string): boolean;
  /** The hub forgets a socket it has just closed. */
  closed(conn: Connection): void;
}

export class Subscriptions {
  readonly byAccount = new Map<number, Set<Subscription>>();

  constructor(private readonly d: SubscriptionsDeps) {}

  /**
   * Confirms or rejects; on PostgreSQL once the identity is looked up on the read pool (the hub holds
   * the socket's later commands until then). In place on SQLite.
   */
  subscribe(conn: Connection, identifier: string): void | Promise<void> {
    if (conn.subs.has(identifier)) return void this.d.send(conn, confirmFrame(identifier));
    const fields = parseIdentifier(identifier);
    const request =
      fields && conn.subs.size < this.d.limits.maxSubscriptions
        ? this.d.identity.subscription(fields, conn.user)
        : null;
    if (request instanceof Promise) return request.then((r) => this.admit(conn, identifier, r));
    this.admit(conn, identifier, request);
  }

  /** Registers the subscription and starts its stream (live, or a replay from `since`), or rejects it. */
  private admit(conn: Connection, identifier: string, request: SubscriptionRequest | null): void {
    if (conn.closed) return; // the socket closed while its identity was looked up
    if (!request) {
      this.d.send(conn, rejectFrame(identifier));
      if (++conn.rejected >= this.d.limits.maxRejected) {
        conn.socket.close(1008, "too many rejected subscriptions");
        this.d.closed(conn);
      }
      return;
    }
    const sub: Subscription = {
      conn,
      identifier,
      identifierJson: JSON.stringify(identifier),
      viewer: request.viewer,
      cursor: 0,
      replaying: false,
      credential: request.viewer.kind === "user" ? (request.credential ?? conn.credential) : null,
    };
    conn.subs.set(identifier, sub);
    let subs = this.byAccount.get(sub.viewer.accountId);
    if (!subs) this.byAccount.set(sub.viewer.accountId, (subs = new Set()));
    subs.add(sub);
    const { viewer } = sub;
    if (this.d.presence.join(viewer.kind, viewer.accountId, presenceId(viewer)))
      this.d.presenceBroadcast.changed(viewer.accountId);
    this.d.live.begin();
    if (!this.d.send(conn, confirmFrame(identifier))) return;
    this.d.streams.start(sub, request.since, {
      feed: this.d.feed,
      pageSize: this.d.limits.replayPage,
      pauseAboveBytes: this.d.limits.maxBufferedBytes / 2,
      send: (c, data) => this.d.send(c, data),
      liveCursor: () => this.d.live.position,
      liveStarted: () => this.d.live.started(),
      failed: (failed, error) => {
        this.d.logger.error("realtime replay failed", { ...errorFields(error) });
        failed.conn.socket.close(1011, "replay failed: reconnect with since");
        this.d.closed(failed.conn);
      },
    });
  }

  unsubscribe(conn: Connection, identifier: string): void {
    const sub = conn.subs.get(identifier);
    if (sub) this.remove(sub);
  }

  /** Chatwoot's RoomChannel#update_presence: answers with the account's presence. */
  /** On PostgreSQL a promise: the socket's later commands wait for the answer (command-queue.ts). */
  perform(conn: Connection, identifier: string, data: string | undefined): void | Promise<void> {
    const sub = conn.subs.get(identifier);
    if (!sub || !data) return;
    const action = parseIdentifier(data)?.action;
    if (action === "update_presence") return this.d.presenceBroadcast.sendTo([sub], sub.viewer.accountId);
  }

  remove(sub: Subscription): void {
    sub.conn.subs.delete(sub.identifier);
    const subs = this.byAccount.get(sub.viewer.accountId);
    subs?.delete(sub);
    if (subs?.size === 0) this.byAccount.delete(sub.viewer.accountId);
    const v = sub.viewer;
    if (this.d.presence.leave(v.kind, v.accountId, presenceId(v))) this.d.presenceBroadcast.changed(v.accountId);
  }

  /** One user's live subscriptions in one account. */
  *subscriptionsOfUser(accountId: number, userId: number): Generator<Subscription> {
    for (const sub of this.byAccount.get(accountId) ?? [])
      if (sub.viewer.kind === "user" && sub.viewer.userId === userId) yield sub;
  }
}

/** Who a subscription counts as in presence: the user, or the website visitor's contact. */
function presenceId(viewer: Subscription["viewer"]): number {
  return viewer.kind === "user" ? viewer.userId : viewer.contactId;
}

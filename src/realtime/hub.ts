// The live side of realtime: connected sockets, their subscriptions, and the fan-out of new outbox
// events. Not durable — the outbox is: a client that was away asks for `since` and is replayed from
// the table. After each commit that wrote events the hub wakes, reads the new events once, renders
// each once, and sends it to every subscription that may see it.
//
// Ordering without gaps or duplicates: every subscription keeps a cursor (the last seq it was
// given). A replaying subscription is skipped by the fan-out; its replay reads the table up to the
// end, and switches to live in the same synchronous step as reading an incomplete final page — so
// any later event is one the fan-out has not read yet, and the cursor drops whatever the replay
// already sent. Nothing is held in memory while a replay runs.
//
// Backpressure: a socket whose unsent buffer passes `maxBufferedBytes` is closed (1013) — one slow
// client never holds up the others or the server. Replays wait for the buffer to drain instead.
import type { RealtimeRepo } from "../db/realtime.repo.ts";
import type { UserRow } from "../db/users.repo.ts";
import type { EventsRepo } from "../db/events.repo.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { errorFields, type Logger } from "../lib/logger.ts";
import { whenReady } from "../lib/when-ready.ts";
import type { EventFeed } from "./feed.ts";
import { disconnectFrame, messageFrame, parseCommand, pingFrame, welcomeFrame } from "../shared/cable-frames.ts";
import { BadTokenError, type CableIdentity, type ConnectionCredentials } from "./identify.ts";
import type { Presence } from "./presence.ts";
import { PresenceBroadcast } from "./presence-broadcast.ts";
import type { EventRenderer } from "./render.ts";
import { Streams } from "./replay.ts";
import { connectionsWithRevokedCredentials } from "./credential-check.ts";
import { LiveFanOut } from "./live-fanout.ts";
import { DEFAULT_LIMITS, newConnection, type CableSocket, type Connection, type HubLimits } from "./connection.ts";
import { Subscriptions } from "./subscriptions.ts";

export type { CableSocket, Connection, HubLimits } from "./connection.ts";
export { DEFAULT_LIMITS } from "./connection.ts";

export interface HubDeps {
  events: EventsRepo;
  realtime: RealtimeRepo;
  identity: CableIdentity;
  renderer: EventRenderer;
  feed: EventFeed;
  presence: Presence;
  clock: Clock;
  logger: Logger;
}

export class RealtimeHub {
  readonly limits: HubLimits;
  private readonly connections = new Set<Connection>();
  /** Sockets whose token is still being looked up (PostgreSQL): not welcomed yet, not pinged. */
  private readonly opening = new Set<Connection>();
  private readonly live: LiveFanOut;
  private readonly streams = new Streams();
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private readonly presenceBroadcast: PresenceBroadcast;
  private readonly subscriptions: Subscriptions;

  constructor(
    private readonly d: HubDeps,
    limits: Partial<HubLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.live = new LiveFanOut({
      ...d,
      subscriptionsOf: (accountId) => this.subscriptions.byAccount.get(accountId),
      listening: () => this.subscriptions.byAccount.size > 0,
      send: (conn, frame) => this.send(conn, frame, true),
      safely: (what, fn) => this.safely(what, fn),
    });
    this.presenceBroadcast = new PresenceBroadcast({
      realtime: d.realtime,
      presence: d.presence,
      delayMs: this.limits.presenceDelayMs,
      subscriptionsOf: (accountId) => this.subscriptions.byAccount.get(accountId) ?? [],
      send: (conn, data) => void this.send(conn, data),
      safely: (what, fn) => this.safely(what, fn),
    });
    this.subscriptions = new Subscriptions({
      ...d,
      limits: this.limits,
      live: this.live,
      streams: this.streams,
      presenceBroadcast: this.presenceBroadcast,
      send: (conn, data) => this.send(conn, data),
      closed: (conn) => this.closed(conn),
    });
  }

  get presence(): Presence {
    return this.d.presence;
  }

  /** Past events for one viewer (HTTP catch-up reads the same pages as a socket replay). */
  get feed(): EventFeed {
    return this.d.feed;
  }

  /**
   * A new socket: welcome it, or tell it its token is wrong and close it. On PostgreSQL its token or
   * cookie is looked up on the read pool: the commands it sends meanwhile wait (command-queue.ts).
   */
  open(socket: CableSocket, credentials: ConnectionCredentials): Connection | null {
    const conn = newConnection(socket, (c, error) => this.failed(c, error));
    let user: UserRow | null | Promise<UserRow | null>;
    try {
      user = this.d.identity.connection(credentials);
    } catch (error) {
      return this.refuse(conn, error);
    }
    if (!(user instanceof Promise)) return this.welcome(conn, credentials, user);
    this.opening.add(conn);
    conn.commands.run(() =>
      user
        .then(
          (u) => void this.welcome(conn, credentials, u),
          (error) => void this.refuse(conn, error),
        )
        .finally(() => this.opening.delete(conn)),
    );
    return conn;
  }

  private welcome(conn: Connection, credentials: ConnectionCredentials, user: UserRow | null): Connection | null {
    if (conn.closed) return null; // the client left while its token was looked up
    conn.user = user;
    conn.credential = this.d.identity.connectionCredential(credentials, user);
    this.connections.add(conn);
    this.send(conn, welcomeFrame());
    this.heartbeat ??= setInterval(() => this.safely("ping", () => this.ping()), this.limits.pingIntervalMs);
    (this.heartbeat as { unref?: () => void }).unref?.();
    return conn;
  }

  /** A token that opens nothing: unauthorized, closed. Anything else is thrown on. */
  private refuse(conn: Connection, error: unknown): null {
    if (!(error instanceof BadTokenError)) throw error;
    if (conn.closed) return null;
    conn.closed = true;
    conn.socket.send(disconnectFrame("unauthorized", false));
    conn.socket.close(1008, "unauthorized");
    return null;
  }

  /** A frame from the client, done after the socket's earlier ones. Anything ActionCable would not send is ignored. */
  command(conn: Connection, raw: unknown): void {
    const c = parseCommand(raw);
    if (!c || conn.closed) return;
    conn.commands.run(() => {
      if (conn.closed) return;
      if (c.command === "subscribe") return this.subscriptions.subscribe(conn, c.identifier);
      if (c.command === "unsubscribe") this.subscriptions.unsubscribe(conn, c.identifier);
      else return this.subscriptions.perform(conn, c.identifier, c.data);
    });
  }

  /** The socket closed (either side). */
  closed(conn: Connection): void {
    conn.closed = true;
    conn.commands.clear();
    this.opening.delete(conn);
    if (!this.connections.delete(conn)) return;
    for (const sub of [...conn.subs.values()]) this.subscriptions.remove(sub);
    for (const wake of conn.drainWaiters.splice(0)) wake();
    if (this.connections.size === 0 && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
    }
  }

  /** An awaited command failed (as the route does with one done in place): logged, the socket closed. */
  private failed(conn: Connection, error: unknown): void {
    this.d.logger.error("cable handler failed", errorFields(error));
    if (!conn.closed) conn.socket.close(1011, "internal error");
    this.closed(conn);
  }

  /** The socket's buffer emptied: replays waiting on it go on. */
  drained(conn: Connection): void {
    for (const wake of conn.drainWaiters.splice(0)) wake();
  }

  /** After a commit that wrote events: fan out soon, once, however many commits came first. */
  wake(): void {
    this.live.wake();
  }

  /** Reads every event not yet streamed and sends each to the subscriptions that may see it (PostgreSQL: a promise of the end). */
  fanOut(): void | Promise<void> {
    return this.live.run();
  }

  /** Server stopping: tell clients to come back later, close every socket. */
  shutdown(): void {
    for (const conn of [...this.opening, ...this.connections]) {
      conn.socket.send(disconnectFrame("server_restart", true));
      conn.socket.close(1001, "server restarting");
      this.closed(conn);
    }
    this.presenceBroadcast.stop();
  }

  /** Sockets whose replay waits for the client to read what was sent (its unsent buffer is half full). */
  waitingForDrain(): number {
    let n = 0;
    for (const c of this.connections) if (c.drainWaiters.length > 0) n++;
    return n;
  }

  /** Resolves once every replay started so far has ended (a test's "the stream is complete" barrier). */
  replaysEnded(): Promise<void> {
    return this.streams.ended();
  }

  stats(): { connections: number; subscriptions: number } {
    let subscriptions = 0;
    for (const c of this.connections) subscriptions += c.subs.size;
    return { connections: this.connections.size, subscriptions };
  }

  /** An agent's chosen availability changed: the account's subscribers hear presence.update (after the delay). */
  availabilityChanged(accountId: number): void {
    this.presenceBroadcast.changed(accountId);
  }

  /** Whether the user has a live subscription in the account (tellUser would reach someone). */
  listening(accountId: number, userId: number): boolean {
    return !this.subscriptions.subscriptionsOfUser(accountId, userId).next().done;
  }

  /**
   * An event for one user's sockets in one account, not from the outbox (no seq): notification.created.
   * A socket that is closed misses it; the user's notification list is the record.
   */
  tellUser(accountId: number, userId: number, event: string, data: Record<string, unknown>): void {
    let body: string | null = null;
    for (const sub of this.subscriptions.subscriptionsOfUser(accountId, userId)) {
      this.send(
        sub.conn,
        messageFrame(
          sub.identifierJson,
          (body ??= JSON.stringify({ event, data: { ...data, account_id: accountId } })),
        ),
      );
    }
  }

  /** Timer work: a failure is logged, never an uncaught exception that would stop the server. */
  private safely(what: string, fn: () => void | Promise<void>): void {
    const failed = (error: unknown) => this.d.logger.error(`realtime ${what} failed`, errorFields(error));
    try {
      fn()?.catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  private ping(): void {
    const frame = pingFrame(unixSeconds(this.d.clock));
    for (const conn of [...this.connections]) this.send(conn, frame);
    this.safely("credential check", () => this.checkCredentials());
  }

  /**
   * Closes sockets whose user credential no longer opens the door (src/realtime/credential-check.ts);
   * run with every ping. Awaited on PostgreSQL: a socket closed meanwhile is left as it is.
   */
  checkCredentials(): void | Promise<void> {
    return whenReady(connectionsWithRevokedCredentials(this.connections, this.d.identity), (revoked) => {
      for (const conn of revoked) {
        if (conn.closed) continue;
        conn.socket.close(1008, "credentials changed: connect again with the new token");
        this.closed(conn);
      }
    });
  }

  /**
   * Sends; false when the socket is gone. Live events (`bounded`) drop a socket whose buffer is past
   * the bound: they are the only traffic a slow client can pile up without end. Control frames and
   * replays (which wait for drain before each message) pass it by one frame at most.
   */
  private send(conn: Connection, data: string, bounded = false): boolean {
    if (conn.closed) return false;
    const result = conn.socket.send(data);
    if (result !== 0 && (!bounded || conn.socket.bufferedAmount() <= this.limits.maxBufferedBytes)) return true;
    this.d.logger.info("realtime client dropped: too slow", {
      buffered: conn.socket.bufferedAmount(),
      subscriptions: conn.subs.size,
    });
    conn.socket.close(1013, "too slow: send buffer full, reconnect with since");
    this.closed(conn);
    return false;
  }
}

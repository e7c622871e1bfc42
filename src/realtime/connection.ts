// The hub's vocabulary: a socket as the hub sees it, a connection and its subscriptions, and the
// limits that keep one client from costing the others. Types, defaults and a new connection's
// blank state only (src/realtime/hub.ts does the work).
import { CommandQueue } from "./command-queue.ts";
import type { Credential } from "./identify.ts";
import type { UserRow } from "../db/users.repo.ts";
import type { Viewer } from "./visibility.ts";

/** What the hub needs from a socket (Bun's ServerWebSocket, through the route). */
export interface CableSocket {
  /** Bun: bytes written, -1 when queued behind backpressure, 0 when dropped. */
  send(data: string): number;
  bufferedAmount(): number;
  close(code: number, reason: string): void;
  /** Bun: the sends inside `fn` leave in one write (a socket of the fan-out gets several frames at once). */
  cork?(fn: () => void): void;
}

export interface HubLimits {
  /** Unsent bytes allowed per socket before it is dropped. */
  maxBufferedBytes: number;
  /** ActionCable clients reconnect after ~6 s without a ping. */
  pingIntervalMs: number;
  /** presence.update is sent at most this often per account (a reconnect storm is one update, not N²). */
  presenceDelayMs: number;
  maxSubscriptions: number;
  /** A socket that asks for this many subscriptions it may not have is closed (each costs a lookup). */
  maxRejected: number;
  replayPage: number;
}

export const DEFAULT_LIMITS: HubLimits = {
  maxBufferedBytes: 1024 * 1024,
  pingIntervalMs: 3000,
  presenceDelayMs: 1000,
  maxSubscriptions: 10,
  maxRejected: 20,
  replayPage: 200,
};

export interface Connection {
  socket: CableSocket;
  /** Null when anonymous, and until the connection's own token is looked up (awaited on PostgreSQL). */
  user: UserRow | null;
  /** What the connection itself was opened with (subscriptions without their own token use it). */
  credential: Credential | null;
  subs: Map<string, Subscription>;
  closed: boolean;
  /** Subscriptions refused on this socket so far. */
  rejected: number;
  drainWaiters: (() => void)[];
  /** Its commands in the order sent: those after an awaited one wait for it. */
  commands: CommandQueue;
}

/** A socket just opened: nobody yet (its token may still be looked up), no subscriptions. */
export function newConnection(socket: CableSocket, failed: (conn: Connection, error: unknown) => void): Connection {
  const conn: Connection = {
    socket,
    user: null,
    credential: null,
    subs: new Map(),
    closed: false,
    rejected: 0,
    drainWaiters: [],
    commands: new CommandQueue((error) => failed(conn, error)),
  };
  return conn;
}

export interface Subscription {
  conn: Connection;
  identifier: string;
  identifierJson: string;
  viewer: Viewer;
  cursor: number;
  replaying: boolean;
  /** The user credential it was granted with: it must keep opening the door (checked with each ping). */
  credential: Credential | null;
}

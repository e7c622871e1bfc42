// What the main thread and the bridge's worker say to each other (sync-bridge.ts, bridge-worker.ts).

/** What the main thread sends: a request and its sequence number, which the reply carries back. */
export type Numbered<T> = T & { seq: number };

export type BridgeRequest =
  | {
      kind: "query";
      url: string;
      text: string;
      params: unknown[];
      arrays: boolean;
      /** Inside a transaction: a failure undoes this statement only, as in SQLite (bridge-worker.ts). */
      guard: boolean;
    }
  | { kind: "script"; url: string; text: string }
  | { kind: "close"; url: string }
  /** Starts listening, on a connection of its own, for other processes' commits (database.ts). */
  | { kind: "listen"; url: string; channel: string };

/**
 * A read that the main thread awaits instead of blocking on (async-reads.ts): it runs on a pool of
 * its own, outside the reserved connection's transaction, so it sees committed rows only. Sent and
 * answered on the reads port, never on the statements' port the main thread blocks on.
 */
export interface ReadRequest {
  url: string;
  text: string;
  params: unknown[];
  arrays: boolean;
}

/** A notification heard on a channel, sent to the main thread's notification port as it comes. */
export interface BridgeNotice {
  url: string;
  channel: string;
  /** The NOTIFY's payload ("" when it had none). */
  payload: string;
}

export type BridgeReply =
  /** `reconnected`: the first connection was lost and the statement ran on a new one (a new session). */
  | { rows: unknown[]; count: number; reconnected?: true; error?: undefined }
  /** `lost`: the connection is gone, and the session with it; the next statement opens a new one. */
  | { error: { message: string; code: string | null; lost: boolean } };

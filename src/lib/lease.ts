// Who runs the background work — event listeners, webhook deliveries, the mail and push outboxes,
// the mail poller and the scheduled jobs — when several processes serve one database: the process
// that holds the lease (on PostgreSQL an advisory lock: src/db/postgres/background-lease.ts). The
// others answer requests and keep their own sockets fed. One process serves a SQLite database, so
// there the lease is always held.

export interface Lease {
  readonly held: boolean;
  /** Takes the lease when no other process holds it (where others can); whether it is held now. */
  tryTake?(): boolean;
}

/** The lease of a process that serves its database alone. */
export const SOLE_LEASE: Lease = { held: true };

/**
 * Exclusive claims on named pieces of work that any process may do (a webhook delivery's stream):
 * a claim is held by one process at a time until it is released or its process dies. Where one
 * process serves the database, every claim is granted and `shared` is false.
 */
export interface WorkClaims {
  /** Whether other processes may hold claims (then work read before claiming must be read again). */
  readonly shared: boolean;
  /** Takes the claim if no other process holds it; each true answer is matched by one release(). */
  claim(key: string): Promise<boolean>;
  release(key: string): Promise<void>;
}

export const SOLE_CLAIMS: WorkClaims = {
  shared: false,
  claim: () => Promise.resolve(true),
  release: () => Promise.resolve(),
};

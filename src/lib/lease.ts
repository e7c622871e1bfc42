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

// The background lease on PostgreSQL (src/lib/lease.ts): a session advisory lock on the process's
// connection. The first process to start takes it; the others try again every second (the
// scheduler's take-lease job), so when the holder stops or dies — its connection closes, kill -9
// included — another process takes the work over within a second, from where the database says it
// stood (listener cursors, pending deliveries and mail are rows).
import type { Lease } from "../../lib/lease.ts";
import type { PostgresDatabase } from "./database.ts";
import type { PostgresStatement } from "./statement.ts";

const BACKGROUND_LEASE_KEY = 0x5041524c4559; // "PARLEY"

export class PostgresLease implements Lease {
  private holding = false;
  /** The session the lock was taken in: a lost connection (PostgreSQL restarted) let it go. */
  private heldIn = -1;
  private readonly take: PostgresStatement;

  constructor(private readonly db: PostgresDatabase) {
    this.take = db.prepare("SELECT pg_try_advisory_lock(CAST(? AS BIGINT)) AS taken");
    this.tryTake();
  }

  get held(): boolean {
    // Another process may hold it by now: stop at once, and try again with the others.
    if (this.holding && this.db.session !== this.heldIn) this.holding = false;
    return this.holding;
  }

  /** Takes the lease if no other process holds it; whether this process holds it now. */
  tryTake(): boolean {
    if (this.held) return true;
    this.holding = (this.take.get(BACKGROUND_LEASE_KEY) as { taken: number }).taken === 1;
    this.heldIn = this.db.session;
    return this.holding;
  }
}

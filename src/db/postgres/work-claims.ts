// Claims on shared work (src/lib/lease.ts WorkClaims) on PostgreSQL: session advisory locks in their
// own key space (the two-int4 form, apart from the background lease's bigint key), keyed by the
// claim's name hashed to an int4. Two names sharing a hash only share a claim: a process waits for
// work it could have done, nothing is done twice. A lock taken twice by one process is held until
// released twice, so one process may hold a name more than once. kill -9 closes the connection,
// and with it every claim the process held. A connection lost under a live process (PostgreSQL
// restarted) took its claims too: they are taken again in the new session before anything else,
// and one another process took meanwhile is that process's now (the attempt under way here may
// then be sent twice, with the same delivery id).
import type { WorkClaims } from "../../lib/lease.ts";
import type { PostgresDatabase } from "./database.ts";
import type { PostgresStatement } from "./statement.ts";

const CLAIMS_CLASS = 0x50574b43; // "PWKC"

export class PostgresClaims implements WorkClaims {
  readonly shared = true;
  private readonly take: PostgresStatement;
  private readonly give: PostgresStatement;
  /** Claims held, and how many times each was taken. */
  private readonly held = new Map<string, number>();
  private session: number;

  constructor(private readonly db: PostgresDatabase) {
    this.take = db.prepare("SELECT pg_try_advisory_lock(CAST(? AS INTEGER), hashtext(?)) AS taken");
    this.give = db.prepare("SELECT pg_advisory_unlock(CAST(? AS INTEGER), hashtext(?)) AS released");
    this.session = db.session;
  }

  claim(key: string): boolean {
    this.renew();
    if (!this.taken(key)) return false;
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
    return true;
  }

  release(key: string): void {
    this.renew();
    const n = this.held.get(key) ?? 0;
    if (n === 0) return; // lost with a connection and taken by another process since: not ours to free
    if (n === 1) this.held.delete(key);
    else this.held.set(key, n - 1);
    this.give.get(CLAIMS_CLASS, key);
  }

  private taken(key: string): boolean {
    return (this.take.get(CLAIMS_CLASS, key) as { taken: number }).taken === 1;
  }

  /** After a lost connection: takes what this process held again, as many times as it held it. */
  private renew(): void {
    if (this.db.session === this.session) return;
    // A failure here is another lost connection: the next call starts again in the session after it.
    for (const [key, n] of [...this.held]) {
      let again = 0;
      while (again < n && this.taken(key)) again++;
      if (again === 0) this.held.delete(key);
      else this.held.set(key, again);
    }
    this.session = this.db.session;
  }
}

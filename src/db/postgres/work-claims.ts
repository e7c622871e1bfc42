// Claims on shared work (src/lib/lease.ts WorkClaims) on PostgreSQL: session advisory locks in their
// own key space (the two-int4 form, apart from the background lease's bigint key), keyed by the
// claim's name hashed to an int4. Two names sharing a hash only share a claim: a process waits for
// work it could have done, nothing is done twice. A lock taken twice by one process is held until
// released twice, so one process may hold a name more than once. kill -9 closes the connection,
// and with it every claim the process held.
import type { WorkClaims } from "../../lib/lease.ts";
import type { PostgresDatabase, PostgresStatement } from "./database.ts";

const CLAIMS_CLASS = 0x50574b43; // "PWKC"

export class PostgresClaims implements WorkClaims {
  readonly shared = true;
  private readonly take: PostgresStatement;
  private readonly give: PostgresStatement;

  constructor(db: PostgresDatabase) {
    this.take = db.prepare("SELECT pg_try_advisory_lock(CAST(? AS INTEGER), hashtext(?)) AS taken");
    this.give = db.prepare("SELECT pg_advisory_unlock(CAST(? AS INTEGER), hashtext(?)) AS released");
  }

  claim(key: string): boolean {
    return (this.take.get(CLAIMS_CLASS, key) as { taken: number }).taken === 1;
  }

  release(key: string): void {
    this.give.get(CLAIMS_CLASS, key);
  }
}

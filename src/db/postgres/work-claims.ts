// Claims on shared work (src/lib/lease.ts WorkClaims) on PostgreSQL: session advisory locks in their
// own key space (the two-int4 form, apart from the background lease's bigint key), keyed by the
// claim's name hashed to an int4. Two names sharing a hash only share a claim: a process waits for
// work it could have done, nothing is done twice. A lock taken twice by one process is held until
// released twice, so one process may hold a name more than once. kill -9 closes the connection,
// and with it every claim the process held.
//
// The locks live on a connection of their own, awaited (held-connection.ts): a claim is taken for
// every webhook delivery, and through the synchronous bridge each would hold the whole process for a
// round trip. One statement at a time, in call order, so a release reaches the server before a later
// claim of the same name. A connection lost under a live process (PostgreSQL restarted) took its
// claims too: they are taken again in the new session before anything else, and one another process
// took meanwhile is that process's now (the attempt under way here may then be sent twice, with the
// same delivery id).
import type { WorkClaims } from "../../lib/lease.ts";
import type { HeldConnection } from "./held-connection.ts";

const CLAIMS_CLASS = 0x50574b43; // "PWKC"
const TAKE = "SELECT pg_try_advisory_lock(CAST($1 AS INTEGER), hashtext($2)) AS taken";
const GIVE = "SELECT pg_advisory_unlock(CAST($1 AS INTEGER), hashtext($2)) AS released";

export class PostgresClaims implements WorkClaims {
  readonly shared = true;
  /** Claims held, and how many times each was taken. */
  private readonly held = new Map<string, number>();
  /** The connection's session the held claims were taken in. */
  private session: number;
  /** The last call's end: each call runs after it. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly connection: HeldConnection) {
    this.session = connection.session;
  }

  claim(key: string): Promise<boolean> {
    return this.inTurn(async () => {
      // A connection found lost did nothing: the claim is asked again in the session after it.
      const taken = await this.take(key).catch(async (error) => {
        if (!lost(error)) throw error;
        return this.take(key);
      });
      if (taken) this.held.set(key, (this.held.get(key) ?? 0) + 1);
      return taken;
    });
  }

  release(key: string): Promise<void> {
    return this.inTurn(async () => {
      await this.renew();
      const n = this.held.get(key) ?? 0;
      if (n === 0) return; // lost with a connection and taken by another process since: not ours to free
      if (n === 1) this.held.delete(key);
      else this.held.set(key, n - 1);
      // Lost meanwhile, the lock went with its session; renew takes back only what is still held.
      await this.connection.query(GIVE, [CLAIMS_CLASS, key], false).catch((error) => {
        if (!lost(error)) throw error;
      });
    });
  }

  private inTurn<T>(call: () => Promise<T>): Promise<T> {
    const turn = this.queue.then(call);
    this.queue = turn.catch(() => {});
    return turn;
  }

  private async take(key: string): Promise<boolean> {
    await this.renew();
    return this.taken(key);
  }

  private async taken(key: string): Promise<boolean> {
    const { rows } = await this.connection.query(TAKE, [CLAIMS_CLASS, key], false);
    const taken = (rows[0] as { taken: unknown }).taken;
    return taken === true || taken === 1;
  }

  /** After a lost connection: takes what this process held again, as many times as it held it. */
  private async renew(): Promise<void> {
    const session = this.connection.session;
    if (session === this.session) return;
    // A failure here is another lost connection: the next call starts again in the session after it.
    for (const [key, n] of [...this.held]) {
      let again = 0;
      while (again < n && (await this.taken(key))) again++;
      if (again === 0) this.held.delete(key);
      else this.held.set(key, again);
    }
    this.session = session;
  }
}

function lost(error: unknown): boolean {
  return (error as { databaseUnavailable?: boolean } | null)?.databaseUnavailable === true;
}

// PostgreSQL restarted under a live process (src/db/postgres/bridge-worker.ts): the statement that
// meets the lost connection fails, the next one opens a new connection, and what lived in the old
// session is accounted for — the background lease is let go (another process may take it) and taken
// again, and the claims a process held are taken again before anyone else's. On a throwaway
// PostgreSQL of its own (it is restarted); skipped, with the reason, where there is none.
import { afterAll, describe, expect, test } from "bun:test";
import { PostgresLease } from "../../src/db/postgres/background-lease.ts";
import { PostgresDatabase } from "../../src/db/postgres/database.ts";
import { SyncBridge } from "../../src/db/postgres/sync-bridge.ts";
import { PostgresClaims } from "../../src/db/postgres/work-claims.ts";
import { postgresForFile } from "../helpers/postgres.ts";

const { server, skip } = await postgresForFile("reconnecting after a PostgreSQL restart");
const opened: PostgresDatabase[] = [];
afterAll(() => {
  for (const db of opened) db.close();
});

describe.skipIf(skip !== null)("a lost PostgreSQL connection", () => {
  test("the next statement reconnects; the lease is let go and taken again; claims are taken again", async () => {
    const url = await server!.createDatabase("restarted");
    const db = new PostgresDatabase(url);
    // Another process, with its own bridge and connection.
    const other = new PostgresDatabase(url, new SyncBridge());
    opened.push(db, other);
    const lease = new PostgresLease(db);
    const claims = new PostgresClaims(db);
    expect(lease.held).toBe(true);
    expect(claims.claim("hook:1\n42")).toBe(true);
    expect(claims.claim("hook:1\n42")).toBe(true); // held twice
    const session = db.session;

    await server!.restart();
    expect(() => db.prepare("SELECT 1 AS one").get()).toThrow();
    expect(db.session).toBe(session + 1);
    expect(lease.held).toBe(false); // the lock went with the session: stop the background work now
    expect(db.prepare("SELECT 1 AS one").get()).toEqual({ one: 1 }); // a new connection

    // The claims come back (twice) in the new session at this process's next claim or release.
    expect(claims.claim("hook:2\n7")).toBe(true);
    expect(() => other.prepare("SELECT 1 AS one").get()).toThrow(); // its connection died too
    const otherClaims = new PostgresClaims(other);
    expect(otherClaims.claim("hook:1\n42")).toBe(false);
    claims.release("hook:1\n42");
    expect(otherClaims.claim("hook:1\n42")).toBe(false);
    claims.release("hook:1\n42");
    expect(otherClaims.claim("hook:1\n42")).toBe(true);

    expect(lease.tryTake?.()).toBe(true);
    expect(lease.held).toBe(true);
    expect(new PostgresLease(other).held).toBe(false);
  });
});

// PostgreSQL restarted under a live process (src/db/postgres/bridge-worker.ts): a statement that
// meets the lost connection runs again on a new one when it cannot have done anything (a read outside
// a transaction, a transaction's start) and fails otherwise; either way what lived in the old session
// is accounted for — the background lease is let go (another process may take it) and taken again,
// and the claims a process held are taken again before anyone else's. On a throwaway PostgreSQL of
// its own (it is restarted); skipped, with the reason, where there is none.
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
  test("a read after a restart runs on a new connection; the lease is let go and taken again; claims too", async () => {
    const url = await server!.createDatabase("restarted");
    const db = new PostgresDatabase(url);
    // Another process, with its own bridge and connection.
    const other = new PostgresDatabase(url, new SyncBridge());
    opened.push(db, other);
    const lease = new PostgresLease(db);
    const claims = new PostgresClaims(db.claimsConnection);
    expect(lease.held).toBe(true);
    expect(await claims.claim("hook:1\n42")).toBe(true);
    expect(await claims.claim("hook:1\n42")).toBe(true); // held twice
    const session = db.session;

    await server!.restart();
    // A read outside a transaction is answered on a new connection, in a new session.
    expect(db.prepare("SELECT 1 AS one").get()).toEqual({ one: 1 });
    expect(db.session).toBe(session + 1);
    expect(lease.held).toBe(false); // the lock went with the session: stop the background work now

    // The claims come back (twice, not once per call) in the new session at this process's next
    // claim or release; two claims asked at once take them back once (calls run one at a time).
    expect(await Promise.all([claims.claim("hook:2\n7"), claims.claim("hook:2\n8")])).toEqual([true, true]);
    const otherSession = other.session;
    expect(other.prepare("SELECT 1 AS one").get()).toEqual({ one: 1 }); // its connection died too
    expect(other.session).toBe(otherSession + 1);
    const otherClaims = new PostgresClaims(other.claimsConnection);
    expect(await otherClaims.claim("hook:1\n42")).toBe(false);
    await claims.release("hook:1\n42");
    expect(await otherClaims.claim("hook:1\n42")).toBe(false);
    await claims.release("hook:1\n42");
    expect(await otherClaims.claim("hook:1\n42")).toBe(true);

    expect(lease.tryTake?.()).toBe(true);
    expect(lease.held).toBe(true);
    expect(new PostgresLease(other).held).toBe(false);
  });

  test("a transaction begins on a new connection; a write that met the lost one fails and is not sent again", async () => {
    const url = await server!.createDatabase("terminated");
    const db = new PostgresDatabase(url);
    const admin = new PostgresDatabase(url, new SyncBridge());
    opened.push(db, admin);
    db.exec("CREATE TABLE notes (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body TEXT NOT NULL)");
    const cut = () => {
      const { pid } = db.prepare("SELECT pg_backend_pid() AS pid").get() as { pid: number };
      expect(admin.prepare("SELECT pg_terminate_backend(?) AS done").get(pid)).toEqual({ done: 1 });
    };

    cut();
    let session = db.session;
    db.transaction(() => db.prepare("INSERT INTO notes (body) VALUES (?)").run("after the cut"))();
    expect(db.session).toBe(session + 1);

    // A write outside a transaction may have run before the connection went: it fails, as lost.
    cut();
    session = db.session;
    let lost: unknown = null;
    try {
      db.prepare("INSERT INTO notes (body) VALUES (?)").run("not sent twice");
    } catch (error) {
      lost = error;
    }
    expect((lost as { databaseUnavailable?: boolean } | null)?.databaseUnavailable).toBe(true);
    expect(db.session).toBe(session + 1);

    // So does a statement inside a transaction: the transaction died with the session.
    db.exec("BEGIN");
    cut();
    expect(() => db.prepare("INSERT INTO notes (body) VALUES (?)").run("in a dead transaction")).toThrow();
    if (db.inTransaction) db.exec("ROLLBACK");
    expect(db.prepare("SELECT body FROM notes ORDER BY id").all()).toEqual([{ body: "after the cut" }]);
  });
});

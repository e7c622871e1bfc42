// Claims on shared work across processes (src/db/postgres/work-claims.ts): two databases, each with
// its own bridge and claims connection, stand for two processes. A claim is one process's at a time,
// held as often as it was taken, and gone with its connection (kill -9 closes it too). On a throwaway PostgreSQL; skipped, with the reason,
// where there is none.
import { afterAll, describe, expect, test } from "bun:test";
import { PostgresDatabase } from "../../src/db/postgres/database.ts";
import { SyncBridge } from "../../src/db/postgres/sync-bridge.ts";
import { PostgresClaims } from "../../src/db/postgres/work-claims.ts";
import { postgresForFile } from "../helpers/postgres.ts";

const { server, skip } = await postgresForFile("claims on shared work");
const opened = new Set<PostgresDatabase>();
afterAll(() => {
  for (const db of opened) db.close();
});

/** A process's connection: its own bridge (worker), as in another process. */
function connect(url: string): PostgresDatabase {
  const db = new PostgresDatabase(url, new SyncBridge());
  opened.add(db);
  return db;
}

describe.skipIf(skip !== null)("PostgresClaims", () => {
  test("one process at a time; held as often as taken; released by the connection's end", async () => {
    const url = await server!.createDatabase("claims");
    const a = connect(url);
    const b = connect(url);
    const [one, two] = [new PostgresClaims(a.claimsConnection), new PostgresClaims(b.claimsConnection)];
    expect(one.shared).toBe(true);

    expect(await one.claim("hook:1\n42")).toBe(true);
    expect(await two.claim("hook:1\n42")).toBe(false);
    expect(await two.claim("hook:1\n43")).toBe(true); // another stream is free

    // Taken twice by one process: free for another only after two releases.
    expect(await one.claim("hook:1\n42")).toBe(true);
    await one.release("hook:1\n42");
    expect(await two.claim("hook:1\n42")).toBe(false);
    await one.release("hook:1\n42");
    expect(await two.claim("hook:1\n42")).toBe(true);
    await two.release("hook:1\n42");

    // What a process holds when it dies is free at once for the others.
    expect(await two.claim("hook:2\n7")).toBe(true);
    expect(await one.claim("hook:2\n7")).toBe(false);
    b.close();
    opened.delete(b);
    // The server ends the closed session's backend (and its locks) a moment after the socket closes.
    let tries = 1;
    while (!(await one.claim("hook:2\n7")) && tries < 10_000) tries++;
    expect(tries).toBeLessThan(10_000);
    expect(await one.claim("hook:1\n43")).toBe(true);
  });

  test("held on a connection of their own, not the bridge's", async () => {
    const url = await server!.createDatabase("claims_apart");
    const a = connect(url);
    const one = new PostgresClaims(a.claimsConnection);
    expect(await one.claim("hook:3\n1")).toBe(true);
    // A statement run in place (the bridge's session) holds no advisory lock.
    const onBridge = a.prepare(
      "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()",
    );
    expect(onBridge.get()).toEqual({ n: 0 });
    // Claims are the two-key form (objsubid 2) in their own class (work-claims.ts), in this database.
    const held = a.prepare(
      "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid = 1347898179 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    );
    expect(held.get()).toEqual({ n: 1 });
    await one.release("hook:3\n1");
    expect(held.get()).toEqual({ n: 0 });
  });
});

// Claims on shared work across processes (src/db/postgres/work-claims.ts): two bridges, each with
// its own connection, stand for two processes. A claim is one process's at a time, held as often as it was taken, and gone
// with its connection (kill -9 closes it too). On a throwaway PostgreSQL; skipped, with the reason,
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
    const [one, two] = [new PostgresClaims(a), new PostgresClaims(b)];
    expect(one.shared).toBe(true);

    expect(one.claim("hook:1\n42")).toBe(true);
    expect(two.claim("hook:1\n42")).toBe(false);
    expect(two.claim("hook:1\n43")).toBe(true); // another stream is free

    // Taken twice by one process: free for another only after two releases.
    expect(one.claim("hook:1\n42")).toBe(true);
    one.release("hook:1\n42");
    expect(two.claim("hook:1\n42")).toBe(false);
    one.release("hook:1\n42");
    expect(two.claim("hook:1\n42")).toBe(true);
    two.release("hook:1\n42");

    // What a process holds when it dies is free at once for the others.
    expect(two.claim("hook:2\n7")).toBe(true);
    expect(one.claim("hook:2\n7")).toBe(false);
    b.close();
    opened.delete(b);
    // The server ends the closed session's backend (and its locks) a moment after the socket closes.
    let tries = 1;
    while (!one.claim("hook:2\n7") && tries < 10_000) tries++;
    expect(tries).toBeLessThan(10_000);
    expect(one.claim("hook:1\n43")).toBe(true);
  });
});

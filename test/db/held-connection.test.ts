// The deadline of the connection awaited transaction bodies run on (src/db/postgres/held-connection.ts):
// the bodies run one at a time, so a statement that never answers must not hold every later write.
// A statement past the deadline is ended by PostgreSQL (the connection stays); a server that stops
// answering altogether is given up on, and the next statement opens a new connection. Both fail as
// "the database is unavailable" (503), not as a refused statement.
import { afterEach, describe, expect, test } from "bun:test";
import { HeldConnection } from "../../src/db/postgres/held-connection.ts";
import type { PostgresError } from "../../src/db/postgres/sync-bridge.ts";
import { freshPostgresUrl, TEST_ENGINE } from "../helpers/test-database.ts";

const DEADLINE_MS = 300;
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f(); // the last opened closes first
});

function connectionTo(url: string): HeldConnection {
  const held = new HeldConnection(url, () => DEADLINE_MS);
  cleanup.push(() => held.close());
  return held;
}

async function failure(p: Promise<unknown>): Promise<PostgresError> {
  return (await p.then(
    () => {
      throw new Error("the statement answered");
    },
    (e: unknown) => e,
  )) as PostgresError;
}

/**
 * A TCP relay to PostgreSQL that can stop passing the server's answers on: a server that still
 * holds the connection open but no longer answers, as one does behind a broken network.
 */
function relayTo(url: string) {
  const target = new URL(url);
  let silent = false;
  const server = Bun.listen<{ upstream?: Promise<import("bun").Socket> }>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(client) {
        client.data = {
          upstream: Bun.connect({
            hostname: target.hostname,
            port: Number(target.port || 5432),
            socket: {
              data(_, chunk) {
                if (!silent) client.write(chunk);
              },
              close() {
                client.end();
              },
            },
          }),
        };
      },
      async data(client, chunk) {
        (await client.data.upstream!).write(chunk);
      },
      async close(client) {
        (await client.data.upstream!).end();
      },
    },
  });
  cleanup.push(() => server.stop(true));
  const relayed = new URL(url);
  relayed.hostname = "127.0.0.1";
  relayed.port = String(server.port);
  return { url: relayed.toString(), silence: () => (silent = true), speak: () => (silent = false) };
}

describe.skipIf(TEST_ENGINE !== "postgres")("the awaited bodies' connection: a deadline", () => {
  test("a statement past it is ended by PostgreSQL: 503-kind, and the connection goes on", async () => {
    const url = freshPostgresUrl();
    const held = connectionTo(url);
    // Another session holds a lock the body's insert must wait for, past the deadline.
    const other = new Bun.SQL(url, { max: 1 });
    cleanup.push(() => other.close());
    const session = await other.reserve();
    cleanup.push(() => session.release());
    await session`BEGIN`;
    await session`LOCK TABLE accounts IN EXCLUSIVE MODE`;

    await held.script("BEGIN");
    const error = await failure(
      held.query("INSERT INTO accounts (name, created_at, updated_at) VALUES ('late', 1, 1)", [], false),
    );
    expect(error.code).toBe("57014");
    expect(error.databaseUnavailable).toBe(true);
    expect(error.message).toContain("statement timeout");
    await held.script("ROLLBACK");
    await session`ROLLBACK`;

    // The same connection answers the next body; nothing of the first was written.
    await held.script("BEGIN");
    await held.query("INSERT INTO accounts (name, created_at, updated_at) VALUES ('next', 1, 1)", [], false);
    await held.script("COMMIT");
    const names = await session`SELECT name FROM accounts ORDER BY id`;
    expect(names.map((r: { name: string }) => r.name)).toEqual(["next"]);
  });

  test("a server that stops answering is given up on; the next statement opens a new connection", async () => {
    const url = freshPostgresUrl();
    const relay = relayTo(url);
    const held = connectionTo(relay.url);
    expect((await held.query("SELECT 1 AS one", [], false)).rows).toEqual([{ one: 1 }]);

    relay.silence();
    const error = await failure(held.query("SELECT 2 AS two", [], false));
    expect(error.code).toBe(null);
    expect(error.databaseUnavailable).toBe(true);
    expect(error.message).toBe("PostgreSQL did not answer within 1.3 s (in: SELECT 2 AS two)");

    relay.speak();
    expect((await held.query("SELECT 3 AS three", [], false)).rows).toEqual([{ three: 3 }]);
  });
});

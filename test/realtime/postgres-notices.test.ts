// What one process tells the others outside a transaction on PostgreSQL (who is online, a committed
// notification for a user's sockets) goes out awaited on the read pool, in the order it was said,
// never through the synchronous bridge in place: the presence heartbeat runs every five seconds in
// every process, and an announcement follows every notification. PostgreSQL only.
import { describe, expect, test } from "bun:test";
import { isPostgres, type PostgresDatabase } from "../../src/db/postgres/database.ts";
import { hearOtherProcesses } from "../../src/deps/other-processes.ts";
import { notificationFrames } from "../../src/realtime/notification-frames.ts";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { createHarness } from "../helpers/harness.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

/** Resolves with the first `n` payloads heard on `channel`. */
function hear(db: PostgresDatabase, channel: string, n: number): Promise<string[]> {
  const heard: string[] = [];
  return new Promise((resolve) => {
    db.onNotice(channel, (payload) => {
      heard.push(payload);
      if (heard.length === n) resolve(heard);
    });
  });
}

function postgresHarness() {
  const h = createHarness();
  const db: unknown = h.deps.db;
  if (!isPostgres(db)) throw new Error("a PostgreSQL harness was expected");
  return { h, db };
}

describe.skipIf(TEST_ENGINE !== "postgres")("notices to the other processes", () => {
  test("sent in the order they were said, none in place", async () => {
    const { db } = postgresHarness();
    const channel = `parley_test_${crypto.randomUUID().slice(0, 8)}`;
    const said = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    const heard = hear(db, channel, said.length);
    const blocking = await blockingDuring(async () => {
      await Promise.all(said.map((line) => db.notifySoon(channel, line)));
    });
    expect(await heard).toEqual(said);
    expect(blocking).toEqual([]);
  });

  test("the presence heartbeat and a notification's announcement", async () => {
    const { h, db } = postgresHarness();
    const { bus, realtime: hub, services, clock, logger } = h.deps;
    const presence = hearOtherProcesses({ db, bus, hub, rules: services.automationRules, clock, logger });
    const announce = notificationFrames({ hub, service: services.notifications, logger, others: db });
    const heartbeat = hear(db, "parley_presence", 2);
    const announced = hear(db, "parley_notifications", 1);
    const blocking = await blockingDuring(async () => {
      presence.tick(); // after the question every process asks once at start (hearOtherProcesses)
      announce({ accountId: 7, userId: 8, notificationId: 9 });
      await Promise.all([heartbeat, announced]);
    });
    const [asked, alive] = await heartbeat;
    expect([asked!.split(" ")[1], alive!.split(" ")[1], asked!.split(" ")[0] === alive!.split(" ")[0]]).toEqual([
      "?",
      "~",
      true,
    ]);
    expect(await announced).toEqual(["7 8 9"]);
    expect(blocking).toEqual([]);
  });
});

// The event bus under a background lease that can go away (several processes on PostgreSQL: the
// session holding it is lost when PostgreSQL restarts, and another process takes the listeners over
// from the saved cursor). A process that lost it stops between two events, and a cursor never moves
// back, whoever saves it last.
import { expect, spyOn, test } from "bun:test";
import type { EventsRepo } from "../../src/db/events.repo.ts";
import { EventBus } from "../../src/events/bus.ts";
import type { Lease } from "../../src/lib/lease.ts";
import type { StoredEvent } from "../../src/shared/event-types.ts";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { makeAccount } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";
import { recordEvents } from "../helpers/webhooks.ts";

async function setup(wakeListeners = true) {
  const h = createHarness({ deps: { wakeListeners } });
  const a = await makeAccount(h);
  const lease: Lease & { held: boolean } = { held: true };
  const bus = new EventBus(h.deps.db, h.deps.logger, lease, h.deps.writeTx, h.deps.commits.settled);
  const handled: number[] = [];
  let onHandle: (e: StoredEvent) => void = () => {};
  bus.register({
    name: "probe",
    handle: (e) => {
      handled.push(e.id);
      onHandle(e);
    },
  });
  const ids = await recordEvents(
    h,
    Array.from({ length: 5 }, () => ({ kind: "contact_updated" as const, accountId: a.accountId })),
  );
  return { h, bus, lease, handled, ids, when: (fn: (e: StoredEvent) => void) => (onHandle = fn) };
}

test("a listener stops between two events once the lease is gone, and goes on from its cursor when it is back", async () => {
  const { bus, lease, handled, ids, when } = await setup();
  when((e) => {
    if (e.id === ids[1]) lease.held = false; // lost while the second event was being handled
  });
  await bus.drain();
  expect(handled).toEqual(ids.slice(0, 2));
  expect(bus.cursorOf("probe")).toBe(ids[1]!);

  await bus.drain(); // without the lease: nothing
  expect(handled).toEqual(ids.slice(0, 2));

  lease.held = true;
  when(() => {});
  await bus.drain();
  expect(handled).toEqual(ids);
  expect(bus.cursorOf("probe")).toBe(ids[4]!);
});

test("a cursor saved behind the one in the table leaves it where it is", async () => {
  const { h, bus, handled, ids, when } = await setup();
  const ahead = ids[4]! + 10;
  // While this process handles its batch, another (which took the lease over) went further still.
  when((e) => {
    if (e.id === ids[0])
      h.deps.db.query("UPDATE listener_cursors SET last_event_id = ? WHERE name = 'probe'").run(ahead);
  });
  await bus.drain();
  expect(handled).toEqual(ids); // the batch read before was finished (at least once, as always)
  expect(bus.cursorOf("probe")).toBe(ahead); // and saving its end did not move the cursor back
});

test.skipIf(TEST_ENGINE !== "postgres")(
  "PostgreSQL: a drain reads its cursor and the events on the read pool and saves the cursor in an awaited body",
  async () => {
    const { bus, handled, ids } = await setup(false); // the server's own listeners idle
    const blocking = await blockingDuring(() => bus.drain());
    expect(blocking).toEqual([]);
    expect(handled).toEqual(ids);
    expect(bus.cursorOf("probe")).toBe(ids[4]!);
  },
);

test("listeners at one cursor share the batch's read, and a drain after new events reads again", async () => {
  const { h, bus, handled, ids } = await setup(false);
  const second: number[] = [];
  bus.register({ name: "probe-two", handle: (e) => void second.push(e.id) });
  // The second listener starts after the newest event: bring it to the first one's cursor.
  h.deps.db.query("UPDATE listener_cursors SET last_event_id = ? WHERE name = 'probe-two'").run(ids[0]! - 1);
  // This bus's own repository: other tests' servers in this file may still be draining theirs.
  const reads = spyOn((bus as unknown as { events: EventsRepo }).events, "readBatchAfter");
  try {
    await bus.drain();
    expect(handled).toEqual(ids);
    expect(second).toEqual(ids);
    expect(reads.mock.calls).toEqual([[ids[0]! - 1, 200]]);

    await bus.drain(); // nothing new: one read at the shared cursor, found empty
    expect(reads.mock.calls.slice(1)).toEqual([[ids[4]!, 200]]);

    const [next] = await recordEvents(h, [{ kind: "contact_updated", accountId: (await makeAccount(h)).accountId }]);
    await bus.drain(); // the empty batch kept from before must not hide the new event
    expect(handled).toEqual([...ids, next!]);
    expect(second).toEqual([...ids, next!]);
    expect(reads.mock.calls.slice(2)).toEqual([[ids[4]!, 200]]);
  } finally {
    reads.mockRestore();
  }
});

// The outbox and the bus: events commit with their change, listeners run after commit, and a
// restart picks up whatever a listener had not finished.
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { MAX_EVENT_FAILURES } from "../../src/events/bus.ts";
import type { StoredEvent } from "../../src/shared/event-types.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createHarness } from "../helpers/harness.ts";
import { makeAccount } from "../helpers/factories.ts";

const actor = { type: "user" as const, id: 1 };

describe("events outbox", () => {
  test("recording outside writeTx is refused", () => {
    const h = createHarness();
    expect(() => h.deps.outbox.record({ kind: "contact_created", accountId: 1, actor, payload: {} })).toThrow(
      "outside writeTx",
    );
  });

  test("an event rolls back with its transaction and no listener sees it", async () => {
    const h = createHarness();
    const { accountId } = await makeAccount(h);
    const seen: StoredEvent[] = [];
    h.deps.bus.register({ name: "fake", handle: (e) => void seen.push(e) });
    expect(() =>
      h.deps.writeTx.now(() => {
        h.deps.outbox.record({ kind: "contact_created", accountId, actor, payload: { id: 1 } });
        throw new Error("change failed");
      }),
    ).toThrow("change failed");
    await h.deps.bus.drain();
    expect(h.events()).toEqual([]);
    expect(seen).toEqual([]);
  });

  test("listeners run after commit, in order, with the stored fields", async () => {
    const h = createHarness();
    const { accountId } = await makeAccount(h);
    const seen: StoredEvent[] = [];
    const both = Promise.withResolvers<void>();
    h.deps.bus.register({ name: "fake", handle: (e) => void (seen.push(e) === 2 && both.resolve()) });
    h.deps.writeTx.now(() => {
      h.deps.outbox.record({
        kind: "contact_created",
        accountId,
        actor,
        contactId: 7,
        payload: { id: 7, name: "Ann" },
      });
      h.deps.outbox.record({
        kind: "message_created",
        accountId,
        actor,
        conversationId: 3,
        inboxId: 2,
        private: true,
        payload: { id: 9 },
      });
      expect(seen).toEqual([]); // nothing runs inside the transaction
    });
    await both.promise; // the bus was woken by the commit, without an explicit drain
    expect(seen.map((e) => [e.kind, e.contactId, e.conversationId, e.inboxId, e.private, e.payload])).toEqual([
      ["contact_created", 7, null, null, false, { id: 7, name: "Ann" }],
      ["message_created", null, 3, 2, true, { id: 9 }],
    ]);
    await h.deps.bus.drain(); // the run already under way: its cursor is saved once the batch is done
    expect(h.deps.bus.cursorOf("fake")).toBe(seen[1]!.id);
  });

  test("in-transaction hooks commit together with the event", async () => {
    const h = createHarness();
    const { accountId } = await makeAccount(h);
    h.deps.db.exec("CREATE TABLE fanout (event_id INTEGER)");
    // A hook is steps (src/db/reads.ts); this one runs its statement in place, as a SQLite body may.
    // biome-ignore lint/correctness/useYield: a hook with nothing to await
    h.deps.outbox.onRecord(function* (e) {
      h.deps.db.query("INSERT INTO fanout VALUES (?)").run(e.id);
    });
    expect(() =>
      h.deps.writeTx.now(() => {
        h.deps.outbox.record({ kind: "contact_created", accountId, actor, payload: {} });
        throw new Error("boom");
      }),
    ).toThrow();
    expect(h.deps.db.query("SELECT COUNT(*) AS n FROM fanout").get()).toEqual({ n: 0 });
    h.deps.writeTx.now(() => h.deps.outbox.record({ kind: "contact_created", accountId, actor, payload: {} }));
    expect(h.deps.db.query("SELECT COUNT(*) AS n FROM fanout").get()).toEqual({ n: 1 });
  });

  test("a failing listener retries, and skips a poison event after MAX_EVENT_FAILURES", async () => {
    const h = createHarness();
    const { accountId } = await makeAccount(h);
    let calls = 0;
    const handled: number[] = [];
    h.deps.bus.register({
      name: "flaky",
      handle(e) {
        if ((e.payload as { poison?: boolean }).poison) {
          calls++;
          throw new Error("cannot handle");
        }
        handled.push(e.payload.n as number);
      },
    });
    h.deps.writeTx.now(() => {
      h.deps.outbox.record({ kind: "contact_updated", accountId, actor, payload: { n: 1 } });
      h.deps.outbox.record({ kind: "contact_updated", accountId, actor, payload: { poison: true } });
      h.deps.outbox.record({ kind: "contact_updated", accountId, actor, payload: { n: 3 } });
    });
    for (let i = 0; i < MAX_EVENT_FAILURES + 1; i++) await h.deps.bus.drain();
    expect(calls).toBe(MAX_EVENT_FAILURES);
    expect(handled).toEqual([1, 3]);
  });

  test("a listener whose cursor could not be read (the database away a moment) runs at the next drain", async () => {
    const h = createHarness();
    const { accountId } = await makeAccount(h);
    const seen: number[] = [];
    h.deps.bus.register({ name: "steady", handle: (e) => void seen.push(e.payload.n as number) });
    h.deps.db.exec("ALTER TABLE listener_cursors RENAME TO listener_cursors_away");
    h.deps.writeTx.now(() => h.deps.outbox.record({ kind: "contact_updated", accountId, actor, payload: { n: 1 } }));
    await expect(h.deps.bus.drain()).rejects.toThrow();
    expect(seen).toEqual([]);
    h.deps.db.exec("ALTER TABLE listener_cursors_away RENAME TO listener_cursors");
    await h.deps.bus.drain();
    expect(seen).toEqual([1]);
    expect(h.deps.bus.cursorOf("steady")).toBe(h.events().at(-1)!.id);
  });

  test("after a restart, events a listener had not finished are delivered", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-outbox-"));
    const path = join(dir, "p.db");
    const open = () => {
      const db = openDatabase(path);
      migrate(db);
      return createDeps({ db, config: loadConfig({ db: path }, {}), logger: createLogger("silent") });
    };
    const first = open();
    const { account_id } = await first.services.accounts.bootstrap({ account: "A", name: "N", email: "n@example.com" });
    first.bus.register({ name: "mailer", handle: () => {} });
    await first.bus.drain();
    // The process dies right after committing, before the bus runs (no drain, no wake handled).
    first.writeTx.now(() =>
      first.outbox.record({ kind: "contact_created", accountId: account_id, actor, payload: { id: 42 } }),
    );
    first.db.close();

    const second = open();
    const seen: number[] = [];
    second.bus.register({ name: "mailer", handle: (e) => void seen.push(e.payload.id as number) });
    await second.bus.drain();
    expect(seen).toEqual([42]);
    second.db.close();
  });
});

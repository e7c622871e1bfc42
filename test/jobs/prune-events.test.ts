// The replay window: events older than the retention go, except those a durable listener or a
// pending webhook delivery still needs, and never the newest (ids must not be handed out twice).
import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { pruneEvents } from "../../src/jobs/prune-events.job.ts";
import { createHarness, type Harness } from "../helpers/harness.ts";
import { makeAccount } from "../helpers/factories.ts";
import { createWebhook, recordEvents } from "../helpers/webhooks.ts";

const DAY = 24 * 3600 * 1000;
// Durable listeners (automation) hold back what they have not handled; the server drains them
// continuously, so the tests let them catch up before pruning.
const prune = async (h: Harness, days = 7) => {
  await h.deps.bus.drain();
  return pruneEvents(
    { events: h.deps.repos.events, writeTx: h.deps.writeTx, clock: h.clock, logger: h.deps.logger },
    days,
  );
};
const ids = (h: Harness) => h.events().map((e) => e.id);
const contactEvents = (accountId: number, n: number) =>
  Array.from({ length: n }, () => ({ kind: "contact_updated" as const, accountId }));

describe("pruneEvents", () => {
  test("deletes events older than the retention, keeps the rest", async () => {
    const h = createHarness();
    const a = await makeAccount(h);
    const old = await recordEvents(h, contactEvents(a.accountId, 3));
    h.clock.advance(6 * DAY);
    const recent = await recordEvents(h, contactEvents(a.accountId, 2));
    h.clock.advance(2 * DAY); // the first three are 8 days old, the others 2
    expect(await prune(h)).toBe(3);
    expect(ids(h)).toEqual(recent);
    expect(await prune(h, 1)).toBe(1); // a shorter window; the newest stays whatever its age
    expect(ids(h)).toEqual([recent[1]!]);
    expect(old[0]).toBeLessThan(recent[0]!);
  });

  test("never the newest event, so the next id continues the sequence", async () => {
    const h = createHarness();
    const a = await makeAccount(h);
    const all = await recordEvents(h, contactEvents(a.accountId, 4));
    h.clock.advance(30 * DAY);
    expect(await prune(h)).toBe(3);
    expect(ids(h)).toEqual([all[3]!]);
    const [next] = await recordEvents(h, contactEvents(a.accountId, 1));
    expect(next).toBe(all[3]! + 1);
  });

  test("keeps what a durable listener has not finished", async () => {
    const h = createHarness();
    const a = await makeAccount(h);
    const all = await recordEvents(h, contactEvents(a.accountId, 5));
    h.deps.db.query("INSERT INTO listener_cursors (name, last_event_id) VALUES ('slow', ?)").run(all[1]!);
    h.clock.advance(30 * DAY);
    expect(await prune(h)).toBe(2);
    expect(ids(h)).toEqual(all.slice(2));
  });

  test("keeps the event of a pending webhook delivery and everything after it", async () => {
    const h = createHarness({ config: { allowPrivateWebhooks: true } });
    await h.deps.deliverer.stop(); // the deliveries stay as the test sets them: nothing is sent
    const a = await makeAccount(h);
    const before = await recordEvents(h, contactEvents(a.accountId, 2));
    await createWebhook(h, a.accountId, a.adminToken, {
      url: "http://127.0.0.1:9/hook",
      subscriptions: ["contact_updated"],
    });
    const delivered = await recordEvents(h, contactEvents(a.accountId, 3));
    h.deps.db.query("UPDATE webhook_deliveries SET status = 'delivered' WHERE event_id <> ?").run(delivered[1]!);
    h.clock.advance(30 * DAY);
    expect(await prune(h)).toBe(3);
    expect(ids(h)).toEqual(delivered.slice(1));
    expect(before).toHaveLength(2);
  });

  test("a large backlog goes in several small transactions", async () => {
    const h = createHarness();
    const a = await makeAccount(h);
    h.deps.db.run(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000)
       INSERT INTO events (account_id, kind, actor_type, payload, created_at_ms) SELECT ?, 'contact_updated', 'system', '{}', ? FROM n`,
      [a.accountId, h.clock.nowMs()],
    );
    h.clock.advance(8 * DAY);
    expect(await prune(h)).toBe(11999);
    expect(h.deps.repos.events.bounds()).toEqual({ oldest: 12000, latest: 12000 });
  });
});

describe("PARLEY_EVENT_RETENTION_DAYS", () => {
  test("defaults to 7 days; a whole number of days from 1 to 3650", () => {
    expect(loadConfig({}, {}).eventRetentionDays).toBe(7);
    expect(loadConfig({}, { PARLEY_EVENT_RETENTION_DAYS: "30" }).eventRetentionDays).toBe(30);
    expect(() => loadConfig({}, { PARLEY_EVENT_RETENTION_DAYS: "0" })).toThrow(ConfigError);
    expect(() => loadConfig({}, { PARLEY_EVENT_RETENTION_DAYS: "a week" })).toThrow(
      "PARLEY_EVENT_RETENTION_DAYS must be a whole number",
    );
  });

  test("the server runs the prune hourly with the configured window", async () => {
    const h = createHarness({ env: { PARLEY_EVENT_RETENTION_DAYS: "3" } });
    const a = await makeAccount(h);
    const all = await recordEvents(h, contactEvents(a.accountId, 3));
    h.clock.advance(4 * DAY);
    const job = h.deps.jobs.find((j) => j.name === "prune-events")!;
    expect(job.pattern).toBe("0 23 * * * *");
    await h.deps.bus.drain();
    await job.run();
    expect(ids(h)).toEqual([all[2]!]);
  });
});

// The scheduler's pruning jobs and the snoozed conversations' reopening on PostgreSQL: their reads go
// to the read pool and their deletes and writes are awaited bodies, so none of them holds the process
// through the synchronous bridge (an events prune deletes up to 5,000 rows a statement). What they
// do is the same on both engines: the reopening is checked on both here, the prunes in their own
// tests (test/jobs/prune-events.test.ts, test/http/cookie-auth.test.ts).
import { describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";
import type { Harness } from "../helpers/harness.ts";

const PRUNING = [
  "prune-events",
  "prune-webhook-deliveries",
  "prune-sessions",
  "prune-password-resets",
  "prune-idempotency-keys",
  "prune-notification-mail",
  "prune-push",
];

async function runJob(h: Harness, name: string): Promise<void> {
  const job = h.deps.jobs.find((j) => j.name === name);
  if (!job) throw new Error(`no job ${name}`);
  await job.run();
}

describe("reopening snoozed conversations", () => {
  test("those whose snooze has passed open, by the system; one snoozed for later stays", async () => {
    const w = await world();
    const due = await newConversation(w);
    const later = await newConversation(w);
    const snooze = (id: number, until: number) =>
      w.h.request("POST", `${w.base}/conversations/${id}/toggle_status`, {
        token: w.a.adminToken,
        body: { status: "snoozed", snoozed_until: until },
      });
    const now = Math.floor(w.h.clock.nowMs() / 1000);
    expect((await snooze(due.id, now + 60)).status).toBe(200);
    expect((await snooze(later.id, now + 3600)).status).toBe(200);
    w.h.clock.advance(120_000);
    await runJob(w.h, "reopen-snoozed");
    const status = async (id: number) =>
      (await w.h.request("GET", `${w.base}/conversations/${id}`, { token: w.a.adminToken })).body.status;
    expect([await status(due.id), await status(later.id)]).toEqual(["open", "snoozed"]);
  });
});

describe.skipIf(TEST_ENGINE !== "postgres")("PostgreSQL: background jobs run nothing in place", () => {
  test("every pruning job, and the reopening of a snoozed conversation", async () => {
    const w = await world();
    const c = await newConversation(w);
    const now = Math.floor(w.h.clock.nowMs() / 1000);
    const snoozed = await w.h.request("POST", `${w.base}/conversations/${c.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "snoozed", snoozed_until: now + 60 },
    });
    expect(snoozed.status).toBe(200);
    w.h.clock.advance(30 * 24 * 3_600_000); // past every retention
    await w.h.deps.bus.drain(); // the listeners' own writes first
    const blocking = await blockingDuring(async () => {
      for (const name of PRUNING) await runJob(w.h, name);
      await runJob(w.h, "reopen-snoozed");
    });
    expect(blocking).toEqual([]);
    const after = await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken });
    expect(after.body.status).toBe("open");
  });
});

// The delivery repo's stream bookkeeping: only stream heads are ever due, and finishing a head lets the
// next one go, so ordering costs an index probe instead of a scan of the backlog.
import { describe, expect, test } from "bun:test";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { readNow } from "../../src/db/reads.ts";
import { WebhookDeliveriesRepo, type NewDelivery } from "../../src/db/webhook-deliveries.repo.ts";

function setup() {
  const db = openDatabase(":memory:");
  migrate(db);
  db.exec("INSERT INTO accounts (name, created_at, updated_at) VALUES ('A', 0, 0)");
  const repo = new WebhookDeliveriesRepo(db);
  let n = 0;
  const add = (target_key: string, order_key: string | null, now_ms = 1000) => {
    const d: NewDelivery = {
      delivery_id: `d${++n}`,
      account_id: 1,
      webhook_id: null,
      inbox_id: 1,
      target_url: "http://x",
      target_key,
      order_key,
      event_id: n,
      event_kind: "message_created",
      conversation_id: null,
      payload: "{}",
      max_attempts: 8,
      now_ms,
    };
    return repo.insert(d);
  };
  const blocked = () =>
    (db.query("SELECT id, blocked FROM webhook_deliveries ORDER BY id").all() as { id: number; blocked: number }[]).map(
      (r) => r.blocked,
    );
  const done = {
    attempts: 1,
    next_attempt_at_ms: null,
    last_status_code: 200,
    last_error: null,
    last_latency_ms: 1,
    now_ms: 2000,
  };
  return { db, repo, add, blocked, done };
}

describe("webhook delivery streams", () => {
  test("a delivery is blocked while an earlier one of its stream is pending; finishing the head frees the next", () => {
    const { repo, add, blocked, done } = setup();
    const a1 = add("webhook:1", "conversation:1");
    add("webhook:1", "conversation:1");
    add("webhook:1", "conversation:2");
    add("webhook:2", "conversation:1"); // another receiver: its own stream
    add("webhook:1", null); // unordered
    expect(blocked()).toEqual([0, 1, 0, 0, 0]);
    expect(readNow(repo.readDueFor("webhook:1", 1000, 10)).map((r) => r.id)).toEqual([1, 3, 5]);
    readNow(
      repo.finishSteps(
        { id: a1, target_key: "webhook:1", order_key: "conversation:1" },
        { ...done, status: "pending", next_attempt_at_ms: 9000 },
      ),
    );
    expect(blocked()).toEqual([0, 1, 0, 0, 0]); // a retry keeps its place at the head
    readNow(
      repo.finishSteps({ id: a1, target_key: "webhook:1", order_key: "conversation:1" }, { ...done, status: "failed" }),
    );
    expect(blocked()).toEqual([0, 0, 0, 0, 0]);
    expect(readNow(repo.readReadyTargets())).toEqual(["webhook:1", "webhook:2"]);
  });

  test("due means due: a head waiting out its backoff is listed as a receiver but not returned", () => {
    const { repo, add } = setup();
    add("inbox:3", "conversation:1", 5000);
    expect(readNow(repo.readReadyTargets())).toEqual(["inbox:3"]);
    expect(readNow(repo.readDueFor("inbox:3", 4999, 4))).toEqual([]);
    expect(readNow(repo.readDueFor("inbox:3", 5000, 4))).toHaveLength(1);
  });

  test("repairStreams unblocks a head left blocked, and nothing else", () => {
    const { db, repo, add, blocked } = setup();
    add("webhook:1", "conversation:1");
    add("webhook:1", "conversation:1");
    add("webhook:1", "conversation:1");
    db.exec("UPDATE webhook_deliveries SET status = 'delivered' WHERE id = 1"); // finished without freeing the next
    expect(blocked()).toEqual([0, 1, 1]);
    expect(readNow(repo.repairStreamsSteps())).toBe(1);
    expect(blocked()).toEqual([0, 0, 1]);
    expect(readNow(repo.repairStreamsSteps())).toBe(0);
  });

  test("redelivering a finished delivery sends it at once; a pending one keeps its place", () => {
    const { db, repo, add, blocked, done } = setup();
    const first = add("webhook:1", "conversation:1");
    add("webhook:1", "conversation:1");
    add("webhook:1", "conversation:1");
    readNow(
      repo.finishSteps(
        { id: first, target_key: "webhook:1", order_key: "conversation:1" },
        { ...done, status: "delivered" },
      ),
    );
    expect(blocked()).toEqual([0, 0, 1]);
    readNow(repo.redeliverSteps(3, 8, 3000)); // pending, behind #2
    readNow(repo.redeliverSteps(first, 2, 3000)); // finished: goes now, outside the order
    expect(blocked()).toEqual([0, 0, 1]);
    expect(
      db.query("SELECT status, next_attempt_at_ms FROM webhook_deliveries WHERE id IN (1, 3) ORDER BY id").all(),
    ).toEqual([
      { status: "pending", next_attempt_at_ms: 3000 },
      { status: "pending", next_attempt_at_ms: 3000 },
    ]);
  });
});

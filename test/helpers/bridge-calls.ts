// What the PostgreSQL bridge is asked to run in place (src/db/postgres/sync-bridge.ts), for tests
// that hold a read-only route to sending nothing there (its statements go to the read pool instead).
import { sharedBridge } from "../../src/db/postgres/sync-bridge.ts";

/**
 * The event bus's own statements, and the webhook deliverer's look for receivers with deliveries
 * waiting: a wake-up left by earlier writes may run them at any turn, whatever the requests do.
 */
const BUS =
  /^(SELECT last_event_id FROM listener_cursors|SELECT \* FROM events WHERE id > |SELECT \(SELECT MIN\(id\) FROM events\)|NOTIFY parley_commits; COMMIT|WITH RECURSIVE t\(k\) AS \( SELECT MIN\(target_key\) FROM webhook_deliveries)/;

/** What the bridge was asked to run in place while `work` ran, besides the bus's own statements. */
export async function blockingDuring(work: () => Promise<void>): Promise<string[]> {
  const bridge = sharedBridge();
  const call = bridge.call;
  const blocking: string[] = [];
  bridge.call = (req) => {
    blocking.push("text" in req ? req.text.replace(/\s+/g, " ").slice(0, 80) : req.kind);
    return call.call(bridge, req);
  };
  try {
    await work();
  } finally {
    bridge.call = call;
  }
  return blocking.filter((sql) => !BUS.test(sql));
}

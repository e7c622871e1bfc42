// What the PostgreSQL bridge is asked to run in place (src/db/postgres/sync-bridge.ts), for tests
// that hold a read-only route to sending nothing there (its statements go to the read pool instead).
import { sharedBridge } from "../../src/db/postgres/sync-bridge.ts";
import { TEST_ENGINE } from "./test-database.ts";

/**
 * The newest committed event, which a socket's subscription still reads in place to start its
 * stream (src/realtime/replay.ts), and the commit notice of a group run in place.
 */
const BUS = /^(SELECT \(SELECT MIN\(id\) FROM events\)|NOTIFY parley_commits; COMMIT)/;

/**
 * What the bridge was asked to run in place while `work` ran, besides the statements above (with
 * `all`, those too: for work that opens no subscription and writes nothing in place).
 */
export async function blockingDuring(work: () => Promise<void>, opts: { all?: boolean } = {}): Promise<string[]> {
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
  return opts.all ? blocking : blocking.filter((sql) => !BUS.test(sql));
}

/** blockingDuring on PostgreSQL; on SQLite, where there is no bridge, runs `work` and answers nothing. */
export async function inPlaceDuring(work: () => Promise<void>): Promise<string[]> {
  if (TEST_ENGINE !== "postgres") {
    await work();
    return [];
  }
  return blockingDuring(work);
}

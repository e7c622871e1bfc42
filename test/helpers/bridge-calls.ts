// What the PostgreSQL bridge is asked to run in place (src/db/postgres/sync-bridge.ts), for tests
// that hold a read-only route to sending nothing there (its statements go to the read pool instead).
import { sharedBridge } from "../../src/db/postgres/sync-bridge.ts";
import { TEST_ENGINE } from "./test-database.ts";

/** The commit notice of a group run in place: a test's own fixtures write in place. */
const BUS = /^NOTIFY parley_commits; COMMIT/;

/**
 * What the bridge was asked to run in place while `work` ran, besides the commit notice above (with
 * `all`, that too: for work during which nothing writes in place).
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

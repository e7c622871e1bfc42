// Bounds the replay window: deletes events older than PARLEY_EVENT_RETENTION_DAYS, but never one a
// durable listener has not finished or a pending webhook delivery came from, and never the newest
// (ids must keep growing). Deletes a prefix of the table in small transactions, so writers wait
// milliseconds at most; a client asking for a pruned `since` is told to resync.
import type { EventsRepo } from "../db/events.repo.ts";
import { readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";

const BATCH = 5000;
const DAY_MS = 24 * 3600 * 1000;

export interface PruneEventsDeps {
  events: EventsRepo;
  writeTx: WriteTx;
  clock: Clock;
  logger: Logger;
}

/** Returns how many events were deleted. */
export async function pruneEvents(d: PruneEventsDeps, retentionDays: number): Promise<number> {
  // Committed rows (PostgreSQL's read pool): a delivery or a cursor the open group writes is newer.
  const below = await readSoon(d.events.readKeepFrom(d.clock.nowMs() - retentionDays * DAY_MS));
  if (below === null) return 0;
  let total = 0;
  for (;;) {
    const n = await d.writeTx.steps(() => d.events.deleteBelowSteps(below, BATCH));
    total += n;
    if (n < BATCH) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (total > 0) d.logger.info("pruned events", { deleted: total, kept_from: below });
  return total;
}

// The two loops a work pump needs (webhook deliveries, email replies): a wake-up that coalesces,
// and a drain that pumps until nothing is in flight.

/**
 * Returns a wake function that runs `pump` soon, once, however often it is called before then; safe
 * to call inside a transaction, as the pump runs after it. setImmediate, not setTimeout(0): Bun clamps
 * the latter to ~1 ms, which would cap a serial stream at ~1,000 a second.
 */
export function coalescedWake(pump: () => void, stopped: () => boolean): () => void {
  let scheduled = false;
  return () => {
    if (scheduled || stopped()) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      pump();
    });
  };
}

/** Tests and benchmarks: pump everything due now, and wait until nothing is in flight. */
export async function drainInFlight(pump: () => void, inFlight: Map<unknown, Promise<void>>): Promise<void> {
  for (;;) {
    pump();
    if (inFlight.size === 0) return;
    await Promise.race(inFlight.values());
  }
}

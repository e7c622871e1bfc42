// Token buckets kept in memory, one per key: `limit` requests at once, refilled at `limit` per
// window. Two numbers per key (a sliding window keeps one timestamp per request), and the map is
// bounded: past `maxKeys` the least recently used keys go first. An evicted key comes back with
// a full bucket, which only forgives; it never refuses anyone early.
import type { Clock } from "./clock.ts";

interface Bucket {
  tokens: number;
  atMs: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    /** Bucket size and requests per window; 0 turns the limit off. */
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: Clock,
    private readonly maxKeys = 50_000,
  ) {
    this.perMs = limit / windowMs;
  }

  /** Takes a token and returns 0, or returns the whole seconds until one is available (taking nothing). */
  take(key: string): number {
    if (this.limit <= 0) return 0;
    const now = this.clock.nowMs();
    const prior = this.buckets.get(key);
    const tokens = prior ? Math.min(this.limit, prior.tokens + (now - prior.atMs) * this.perMs) : this.limit;
    // Re-inserting moves the key to the end of the map's order: the first key is the least recently used.
    this.buckets.delete(key);
    if (tokens >= 1) {
      this.buckets.set(key, { tokens: tokens - 1, atMs: now });
      this.evict();
      return 0;
    }
    this.buckets.set(key, { tokens, atMs: now });
    // windowMs / limit (not 1 / perMs): whole numbers divide exactly, so 2 an hour waits 1800 s, not 1801.
    const waitMs = ((1 - tokens) * this.windowMs) / this.limit;
    return Math.max(1, Math.ceil(waitMs / 1000 - 1e-9));
  }

  get size(): number {
    return this.buckets.size;
  }

  private evict(): void {
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= this.maxKeys) return;
      this.buckets.delete(key);
    }
  }
}

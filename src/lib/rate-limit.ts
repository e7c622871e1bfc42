// Sliding-window counters kept in memory: one Parley process serves the whole helpdesk, so there
// is no shared store to keep them in, and losing them on restart only forgives a few attempts.
import type { Clock } from "./clock.ts";

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: Clock,
    /** Above this many keys, expired ones are swept (bounds memory under a spray of keys). */
    private readonly sweepAbove = 10_000,
  ) {}

  /** Records a hit and returns 0, or returns the seconds until one is allowed (and records nothing). */
  take(key: string): number {
    const now = this.clock.nowMs();
    const recent = this.recent(key, now);
    if (recent.length >= this.limit) return Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000));
    recent.push(now);
    this.hits.set(key, recent);
    if (this.hits.size > this.sweepAbove) this.sweep();
    return 0;
  }

  /** Takes back the latest hit of a key (a request that turned out not to count). */
  refund(key: string): void {
    const list = this.hits.get(key);
    list?.pop();
    if (list && list.length === 0) this.hits.delete(key);
  }

  /** Drops keys whose hits have all left the window. */
  sweep(): void {
    const now = this.clock.nowMs();
    for (const key of [...this.hits.keys()]) if (this.recent(key, now).length === 0) this.hits.delete(key);
  }

  get size(): number {
    return this.hits.size;
  }

  private recent(key: string, now: number): number[] {
    const list = this.hits.get(key) ?? [];
    const from = now - this.windowMs;
    let i = 0;
    while (i < list.length && list[i]! <= from) i++;
    const kept = i === 0 ? list : list.slice(i);
    if (kept.length === 0) this.hits.delete(key);
    else if (i > 0) this.hits.set(key, kept);
    return kept;
  }
}

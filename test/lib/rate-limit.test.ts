import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../src/lib/clock.ts";
import { SlidingWindowLimiter } from "../../src/lib/rate-limit.ts";
import { BUSY, Semaphore } from "../../src/lib/semaphore.ts";

describe("SlidingWindowLimiter", () => {
  test("allows `limit` hits per window, then tells how long until the oldest leaves it", () => {
    const clock = new ManualClock(0);
    const l = new SlidingWindowLimiter(2, 10_000, clock);
    expect(l.take("k")).toBe(0);
    clock.advance(3_000);
    expect(l.take("k")).toBe(0);
    expect(l.take("k")).toBe(7);
    expect(l.take("other")).toBe(0);
    clock.advance(7_000);
    expect(l.take("k")).toBe(0); // the first hit has left the window
    expect(l.take("k")).toBe(3);
  });

  test("a refund gives the latest hit back", () => {
    const l = new SlidingWindowLimiter(1, 10_000, new ManualClock(0));
    expect(l.take("k")).toBe(0);
    l.refund("k");
    expect(l.size).toBe(0);
    expect(l.take("k")).toBe(0);
  });

  test("sweeping forgets keys whose window has passed, and happens by itself above the key bound", () => {
    const clock = new ManualClock(0);
    const l = new SlidingWindowLimiter(5, 1_000, clock, 3);
    for (const k of ["a", "b", "c"]) l.take(k);
    clock.advance(1_000);
    l.take("d");
    expect(l.size).toBe(1);
    l.take("e");
    clock.advance(1_000);
    l.sweep();
    expect(l.size).toBe(0);
  });
});

describe("Semaphore", () => {
  test("runs at most `concurrency` at once, queues up to maxQueue, answers BUSY beyond", async () => {
    const s = new Semaphore(2, 1);
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const job = () =>
      s.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((r) => releases.push(r));
        running--;
        return "done";
      });
    const results = [job(), job(), job()];
    expect(await job()).toBe(BUSY);
    expect(s.waiting).toBe(1);
    while (releases.length) {
      releases.shift()!();
      await new Promise((resolve) => setImmediate(resolve)); // the queued job takes the freed slot
    }
    expect(await Promise.all(results)).toEqual(["done", "done", "done"]);
    expect(peak).toBe(2);
    expect(s.waiting).toBe(0);
  });
});

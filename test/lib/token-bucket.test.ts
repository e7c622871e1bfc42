import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../src/lib/clock.ts";
import { TokenBuckets } from "../../src/lib/token-bucket.ts";

describe("TokenBuckets", () => {
  test("a burst of `limit`, then one token per window/limit; a refusal says when the next token comes", () => {
    const clock = new ManualClock(0);
    const b = new TokenBuckets(3, 60_000, clock); // one token per 20 s
    expect([b.take("k"), b.take("k"), b.take("k")]).toEqual([0, 0, 0]);
    expect(b.take("k")).toBe(20);
    clock.advance(5_000);
    expect(b.take("k")).toBe(15);
    expect(b.take("other")).toBe(0);
    clock.advance(15_000);
    expect(b.take("k")).toBe(0);
    expect(b.take("k")).toBe(20);
  });

  test("an idle key fills up to the limit, never beyond", () => {
    const clock = new ManualClock(0);
    const b = new TokenBuckets(2, 1_000, clock);
    b.take("k");
    b.take("k");
    clock.advance(60_000);
    expect([b.take("k"), b.take("k"), b.take("k")]).toEqual([0, 0, 1]);
  });

  test("a limit of 0 is no limit and keeps no state", () => {
    const b = new TokenBuckets(0, 1_000, new ManualClock(0));
    for (let i = 0; i < 100; i++) expect(b.take("k")).toBe(0);
    expect(b.size).toBe(0);
  });

  test("memory is bounded: past maxKeys the least recently used keys are forgotten (with a full bucket)", () => {
    const clock = new ManualClock(0);
    const b = new TokenBuckets(1, 60_000, clock, 3);
    for (const k of ["a", "b", "c"]) b.take(k);
    expect(b.take("a")).toBe(60); // refused, and now the most recently used
    b.take("d"); // evicts b, the least recently used
    expect(b.size).toBe(3);
    expect(b.take("a")).toBe(60); // still remembered
    expect(b.take("b")).toBe(0); // forgotten: a full bucket again
    for (let i = 0; i < 10_000; i++) b.take(`spray-${i}`);
    expect(b.size).toBe(3);
  });
});

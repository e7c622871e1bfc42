import { describe, expect, test } from "bun:test";
import { PasswordHasher, BUSY } from "../../src/lib/passwords.ts";

describe("PasswordHasher", () => {
  test("argon2id with Bun's default cost (64 MiB, t=2); an unknown user costs as much as a wrong password", async () => {
    const hasher = new PasswordHasher();
    const hash = await hasher.hash("correct horse");
    expect(hash).toStartWith("$argon2id$v=19$m=65536,t=2,p=1$");
    expect(await hasher.verify("correct horse", hash)).toBe(true);
    await hasher.verify("warm-up", null); // builds the dummy hash once
    const time = async (fn: () => Promise<unknown>) => {
      const start = performance.now();
      await fn();
      return performance.now() - start;
    };
    const wrong = await time(async () => expect(await hasher.verify("wrong", hash)).toBe(false));
    const unknown = await time(async () => expect(await hasher.verify("wrong", null)).toBe(false));
    // Both do one full verification (~170 ms here); a skipped one would take well under 1 ms.
    expect(wrong).toBeGreaterThan(40);
    expect(unknown).toBeGreaterThan(40);
    // Same order of cost. The band is wide because a loaded machine stretches either run; a skipped
    // verification would be a ratio near 0.005, far outside it.
    expect(unknown / wrong).toBeGreaterThan(0.25);
    expect(unknown / wrong).toBeLessThan(4);
  }, 20_000);

  test("verifications beyond the cap and its queue answer BUSY", async () => {
    const hasher = new PasswordHasher({ concurrency: 1, queue: 1, memoryCost: 1024, timeCost: 1 });
    const hash = await hasher.hash("pw-pw-pw-pw");
    const all = await Promise.all([
      hasher.verify("pw-pw-pw-pw", hash),
      hasher.verify("pw-pw-pw-pw", hash),
      hasher.verify("pw-pw-pw-pw", hash),
    ]);
    expect(all).toEqual([true, true, BUSY]);
  });
});

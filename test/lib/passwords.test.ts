import { describe, expect, spyOn, test } from "bun:test";
import { PasswordHasher, BUSY } from "../../src/lib/passwords.ts";

describe("PasswordHasher", () => {
  test("argon2id with Bun's default cost (64 MiB, t=2); an unknown user costs as much as a wrong password", async () => {
    const hasher = new PasswordHasher();
    const hash = await hasher.hash("correct horse");
    expect(hash).toStartWith("$argon2id$v=19$m=65536,t=2,p=1$");
    expect(await hasher.verify("correct horse", hash)).toBe(true);
    // The same work, not the same stopwatch reading: each answer is one argon2id verification at the
    // same cost (an unknown user's against a dummy hash made like any other).
    const verify = spyOn(Bun.password, "verify");
    try {
      expect(await hasher.verify("wrong", hash)).toBe(false);
      expect(await hasher.verify("wrong", null)).toBe(false);
      expect(verify).toHaveBeenCalledTimes(2);
      const [wrong, unknown] = verify.mock.calls.map((c) => String(c[1]));
      expect(wrong).toBe(hash);
      expect(unknown).not.toBe(hash);
      expect(unknown!.slice(0, 31)).toBe(hash.slice(0, 31)); // "$argon2id$v=19$m=65536,t=2,p=1$"
    } finally {
      verify.mockRestore();
    }
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

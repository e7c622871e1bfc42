// VersionedCache.getAsync: results of awaited computations kept until the database version moves.
import { describe, expect, test } from "bun:test";
import { VersionedCache } from "../../src/domain/versioned-cache.ts";

/** A computation that answers when the test says so, counting how often it was started. */
function deferredComputation() {
  const started: ((value: string) => void)[] = [];
  const failers: ((error: Error) => void)[] = [];
  const compute = () =>
    new Promise<string>((resolve, reject) => {
      started.push(resolve);
      failers.push(reject);
    });
  return { compute, started, failers };
}

describe("VersionedCache.getAsync", () => {
  test("asks made while the computation runs share it; a new version computes again", async () => {
    let version = "1";
    const cache = new VersionedCache(() => version, 8);
    const c = deferredComputation();
    const first = cache.getAsync("team:1", c.compute);
    const second = cache.getAsync("team:1", c.compute);
    expect(c.started.length).toBe(1);
    c.started[0]!("figures at 1");
    expect(await first).toBe("figures at 1");
    expect(await second).toBe("figures at 1");
    expect(await cache.getAsync("team:1", c.compute)).toBe("figures at 1");
    expect(c.started.length).toBe(1);

    version = "2";
    const third = cache.getAsync("team:1", c.compute);
    expect(c.started.length).toBe(2);
    c.started[1]!("figures at 2");
    expect(await third).toBe("figures at 2");
  });

  test("a failed computation is forgotten: the next ask computes again", async () => {
    const cache = new VersionedCache(() => "1", 8);
    const c = deferredComputation();
    const failing = cache.getAsync("team:1", c.compute);
    c.failers[0]!(new Error("connection lost"));
    await expect(failing).rejects.toThrow("connection lost");
    const retried = cache.getAsync("team:1", c.compute);
    expect(c.started.length).toBe(2);
    c.started[1]!("figures");
    expect(await retried).toBe("figures");
  });

  test("without a version nothing is kept", async () => {
    const cache = new VersionedCache(undefined, 8);
    const c = deferredComputation();
    const a = cache.getAsync("k", c.compute);
    const b = cache.getAsync("k", c.compute);
    expect(c.started.length).toBe(2);
    c.started[0]!("a");
    c.started[1]!("b");
    expect([await a, await b]).toEqual(["a", "b"]);
  });

  test("an awaited version (PostgreSQL): never read in place; asks made at one version share a computation", async () => {
    let version = "1";
    const inPlace = () => {
      throw new Error("read in place");
    };
    const versionReads: ((v: string) => void)[] = [];
    const readSoon = () => new Promise<string>((resolve) => versionReads.push(resolve));
    const cache = new VersionedCache(inPlace, 8, readSoon);
    const c = deferredComputation();
    let began = Promise.withResolvers<void>();
    const compute = () => {
      began.resolve();
      return c.compute();
    };
    const first = cache.getAsync("team:1", compute);
    const second = cache.getAsync("team:1", compute);
    expect(c.started.length).toBe(0); // both still wait for the version
    for (const answer of versionReads.splice(0)) answer(version);
    await began.promise;
    c.started[0]!("figures at 1");
    expect([await first, await second]).toEqual(["figures at 1", "figures at 1"]);
    expect(c.started.length).toBe(1);

    version = "2";
    began = Promise.withResolvers<void>();
    const third = cache.getAsync("team:1", compute);
    versionReads.splice(0)[0]!(version);
    await began.promise;
    expect(c.started.length).toBe(2);
    c.started[1]!("figures at 2");
    expect(await third).toBe("figures at 2");
  });
});

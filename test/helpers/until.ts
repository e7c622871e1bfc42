// Waiting on state that nothing announces: what a page shows after the server changed it, or what
// the in-process server holds (a socket it has taken the close of). Where a frame, a request or a
// promise says so, tests wait on that instead.

/** Waits until fn() returns something truthy, and returns it; looked at again every 50 ms. */
export async function until<T>(fn: () => T | Promise<T>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > end) throw new Error(`until: still falsy after ${timeoutMs} ms: ${fn.toString()}`);
    await Bun.sleep(50);
  }
}

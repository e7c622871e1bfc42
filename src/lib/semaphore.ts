// Caps how many expensive operations run at once, with a bounded queue behind them. Used for
// argon2 verifications: each holds 64 MiB, so an unbounded burst of sign-ins could exhaust memory.

export class Semaphore {
  private active = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxQueue: number,
  ) {}

  /** Runs fn when a slot is free; returns `busy` at once when the queue is full. */
  async run<T>(fn: () => Promise<T>): Promise<T | typeof BUSY> {
    if (this.active >= this.concurrency) {
      if (this.waiters.length >= this.maxQueue) return BUSY;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await fn();
    } finally {
      // Hand the slot straight to the next waiter, so `active` never dips and lets a newcomer jump the queue.
      const next = this.waiters.shift();
      if (next) next();
      else this.active--;
    }
  }

  get waiting(): number {
    return this.waiters.length;
  }
}

export const BUSY: unique symbol = Symbol("busy");

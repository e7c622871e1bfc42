// Password hashing for web sign-in: argon2id through Bun.password. The defaults (64 MiB, t=2) cost
// ~170 ms and 64 MiB per call here, so verifications go through a
// Semaphore, and an unknown email is checked against a dummy hash so it takes as long as a wrong password.
import { BUSY, Semaphore } from "./semaphore.ts";

export interface PasswordHasherOptions {
  /** Verifications running at once (each holds memoryCost KiB). */
  concurrency: number;
  /** Verifications allowed to wait for a slot; beyond that `verify` answers BUSY. */
  queue: number;
  /** argon2id memory in KiB (Bun's default 65536 = 64 MiB). Tests lower it. */
  memoryCost?: number;
  timeCost?: number;
}

export const DEFAULT_HASHER: PasswordHasherOptions = { concurrency: 2, queue: 32 };

export class PasswordHasher {
  private readonly slots: Semaphore;
  private dummy: Promise<string> | null = null;

  constructor(private readonly opts: PasswordHasherOptions = DEFAULT_HASHER) {
    this.slots = new Semaphore(opts.concurrency, opts.queue);
  }

  hash(password: string): Promise<string> {
    return Bun.password.hash(password, {
      algorithm: "argon2id",
      memoryCost: this.opts.memoryCost ?? 65536,
      timeCost: this.opts.timeCost ?? 2,
    });
  }

  /** True when the password matches; without a hash, verifies against a dummy and answers false. */
  async verify(password: string, hash: string | null): Promise<boolean | typeof BUSY> {
    const against = hash ?? (await (this.dummy ??= this.hash(crypto.randomUUID())));
    const ok = await this.slots.run(() => Bun.password.verify(password, against));
    return ok === BUSY ? BUSY : ok && hash !== null;
  }
}

export { BUSY };

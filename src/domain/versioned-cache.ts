// Read results kept until the database changes: each entry carries the read version it was computed
// at (this server's commit count and SQLite's data_version for other connections, src/deps.ts), so a
// hit is always what the database would answer now. The newest `size` entries are kept.
export class VersionedCache {
  private readonly entries = new Map<string, { version: string; value: unknown }>();

  /** `readVersionSoon`: the version awaited, where reading it in place would block (PostgreSQL). */
  constructor(
    private readonly readVersion: (() => string) | undefined,
    private readonly size: number,
    private readonly readVersionSoon?: () => Promise<string>,
  ) {}

  /**
   * A computation that is awaited, kept by the version read before it started (look/keep). The
   * promise itself is kept, so requests that ask the same thing while it runs share one computation
   * instead of each starting its own; a failed one is forgotten, and the next request computes again.
   */
  getAsync<T>(key: string, compute: () => Promise<T>): Promise<T> {
    // The version awaited, then the lookup and the keeping in one step: asks whose versions arrive
    // in the same turn still find the computation the first of them started.
    if (this.readVersionSoon)
      return this.readVersionSoon().then((at) =>
        this.keptOr(key, { at, value: this.hit<Promise<T>>(key, at) }, compute),
      );
    return this.keptOr(key, this.look<Promise<T>>(key), compute);
  }

  private keptOr<T>(
    key: string,
    kept: { at: string | undefined; value: Promise<T> | undefined },
    compute: () => Promise<T>,
  ): Promise<T> {
    if (kept.value) return kept.value;
    const value = compute();
    this.keep(key, kept.at, value);
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  /**
   * The current version, and what is kept for `key` at it. A value computed after this call (awaited
   * reads included) is then kept with keep(key, at, value): tagged with the version read before it
   * was computed, never a later one, a commit in between can only make it recomputed, never stale.
   */
  look<T>(key: string): { at: string | undefined; value: T | undefined } {
    const at = this.readVersion?.();
    return { at, value: this.hit<T>(key, at) };
  }

  /** look(), with the version awaited where it can be. */
  async lookSoon<T>(key: string): Promise<{ at: string | undefined; value: T | undefined }> {
    if (!this.readVersionSoon) return this.look<T>(key);
    const at = await this.readVersionSoon();
    return { at, value: this.hit<T>(key, at) };
  }

  private hit<T>(key: string, at: string | undefined): T | undefined {
    const kept = this.entries.get(key);
    return kept && at !== undefined && kept.version === at ? (kept.value as T) : undefined;
  }

  keep(key: string, at: string | undefined, value: unknown): void {
    if (at !== undefined) this.put(key, at, value);
  }

  private put(key: string, version: string, value: unknown): void {
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
  }
}

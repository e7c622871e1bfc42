// Secrets the server generates for itself (migration 016), made once and kept with the data.
import type { Database } from "bun:sqlite";

export class ServerSecretsRepo {
  constructor(private readonly db: Database) {}

  /** The named secret, created with `make` the first time (a concurrent first start keeps one). */
  getOrCreate(name: string, make: () => string): string {
    const read = () =>
      (this.db.prepare("SELECT value FROM server_secrets WHERE name = $name").get({ name }) as { value: string } | null)
        ?.value;
    // Read first: a start that finds its secret writes nothing (a write would cost a commit).
    const found = read();
    if (found !== undefined) return found;
    this.db
      .prepare("INSERT OR IGNORE INTO server_secrets (name, value) VALUES ($name, $value)")
      .run({ name, value: make() });
    return read()!;
  }
}

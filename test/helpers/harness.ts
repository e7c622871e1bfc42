// A fresh in-memory Parley per test: real migrations, real services, the real app driven through
// app.handle(). No module singletons, so tests never see each other's data.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig, type Config } from "../../src/config.ts";
import { createDeps, type Deps, type DepsOptions } from "../../src/deps.ts";
import type { StoredEvent } from "../../src/shared/event-types.ts";
import { eventFromRow } from "../../src/db/events.repo.ts";
import { ManualClock } from "../../src/lib/clock.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { PasswordHasher } from "../../src/lib/passwords.ts";
import { isPostgres } from "../../src/db/postgres/database.ts";
import { freshDatabase, type TestEngine } from "./test-database.ts";

/** Real argon2id at 1 MiB and one pass: the same code path as production at a fraction of its 170 ms. */
export const cheapHasher = () => new PasswordHasher({ concurrency: 2, queue: 32, memoryCost: 1024, timeCost: 1 });

export interface RequestOptions {
  token?: string | null;
  /** JSON (an object or a string), or a FormData sent multipart (the Request sets its boundary). */
  body?: unknown;
  /** Send the body url-encoded (values as strings) instead of JSON. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface Harness {
  deps: Deps;
  app: ReturnType<typeof createApp>;
  clock: ManualClock;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<TestResponse<T>>;
  /** Events recorded after `afterId` (default: all), oldest first. */
  events(afterId?: number): StoredEvent[];
  lastEventId(): number;
}

export interface HarnessOptions {
  config?: Partial<Config>;
  env?: Record<string, string>;
  /** Seams a test may replace (e.g. onCallbackGaveUp: what a finally failed API inbox callback does). */
  deps?: Pick<DepsOptions, "onCallbackGaveUp" | "wakeListeners">;
  /** The engine, when a test needs one in particular (a SQLite file to copy); default: the run's. */
  engine?: TestEngine;
}

export function createHarness(opts: HarnessOptions = {}): Harness {
  const db = freshDatabase(opts.engine);
  const clock = new ManualClock();
  // Each harness keeps its attachments in its own throwaway directory.
  const storage = mkdtempSync(join(tmpdir(), "parley-files-"));
  const config = { ...loadConfig({ storage }, opts.env ?? {}), ...opts.config } as Config;
  const deps = createDeps({
    db,
    config,
    clock,
    logger: createLogger((process.env.PARLEY_TEST_LOG as "error" | undefined) ?? "silent"),
    hasher: cheapHasher(),
    groupCommit: true,
    ...opts.deps,
  });
  const app = createApp(deps);

  // Background work (listeners, automation, the mail sender) writes in a group that commits at the
  // end of its turn. On PostgreSQL read-only endpoints read committed rows on the read pool
  // (src/db/reads.ts), so a request made right after such work, before that commit, would not see
  // it; a client meets that only for work nobody acknowledged to it, while tests expect it done. A
  // request made when no other is in flight commits the open group first; requests made together
  // still share theirs.
  const awaitsOnPool = isPostgres(db);
  let inFlight = 0;

  async function request<T>(method: string, path: string, o: RequestOptions = {}): Promise<TestResponse<T>> {
    if (awaitsOnPool && inFlight === 0) deps.commits.flush();
    inFlight++;
    try {
      return await handled<T>(method, path, o);
    } finally {
      inFlight--;
    }
  }

  async function handled<T>(method: string, path: string, o: RequestOptions): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.api_access_token = o.token;
    let body: BodyInit | undefined;
    if (o.form) {
      body = new URLSearchParams(o.form).toString();
      headers["content-type"] ??= "application/x-www-form-urlencoded";
    } else if (o.body instanceof FormData) {
      body = o.body;
    } else if (o.body !== undefined) {
      body = typeof o.body === "string" ? o.body : JSON.stringify(o.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed as T, headers: res.headers, text };
  }

  return {
    deps,
    app,
    clock,
    request,
    events(afterId = 0) {
      return (
        db.query("SELECT * FROM events WHERE id > ? ORDER BY id").all(afterId) as Parameters<typeof eventFromRow>[0][]
      ).map(eventFromRow);
    },
    lastEventId() {
      return (db.query("SELECT COALESCE(MAX(id), 0) AS id FROM events").get() as { id: number }).id;
    },
  };
}

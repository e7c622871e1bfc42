// The only file that listens: open the database → migrate → first account → app.listen → jobs.
// SIGTERM/SIGINT stop accepting requests, let running jobs finish (deliveries drain), then exit.
import { accountCount, checkpoint } from "./db/maintenance.ts";
import type { Database } from "bun:sqlite";
import { createApp } from "./app.ts";
import { ConfigError, type Config, isPostgresUrl } from "./config.ts";
import { migrate } from "./db/migrate.ts";
import { openDatabase, refreshPlannerStatistics } from "./db/open.ts";
import { openPostgresServer } from "./db/postgres/open-postgres.ts";
import { sharedBridge } from "./db/postgres/sync-bridge.ts";
import { holdServerLock, type ServerLock, ServerLockedError } from "./db/server-lock.ts";
import { createDeps, type Deps } from "./deps.ts";
import { Scheduler } from "./jobs/scheduler.ts";
import { createLogger, type Logger } from "./lib/logger.ts";

export interface FirstRun {
  account_id: number;
  user_id: number;
  email: string;
  api_access_token: string;
  /** The administrator's web sign-in password, shown once. */
  password: string;
}

/** On a database with no account, creates the first account and administrator, with a token and a password. */
export async function ensureFirstAccount(d: Deps): Promise<FirstRun | null> {
  const row = { n: accountCount(d.db) };
  if (row.n > 0) return null;
  const email = "admin@parley.local";
  const result = await d.services.accounts.bootstrap({ account: "My Helpdesk", name: "Administrator", email });
  const password = await d.services.passwords.setRandom(result.user_id);
  return { ...result, email, password };
}

export interface RunningServer {
  url: string;
  port: number;
  deps: Deps;
  stop(): Promise<void>;
}

/**
 * Listens without SO_REUSEPORT: with it, a second `parley serve` on the same port started silently
 * and requests alternated between the two processes (and their databases). A busy port is a
 * ConfigError: the CLI says so and exits with 2.
 */
function listenAlone(app: ReturnType<typeof createApp>, config: Config): void {
  try {
    // Bun's own body limit is only a far backstop; the app enforces config.bodyLimit with a proper 413 body.
    app.listen({
      port: config.port,
      hostname: config.host,
      reusePort: false,
      maxRequestBodySize: Math.max(config.bodyLimit * 4, 64 * 1024 * 1024),
    });
  } catch (error) {
    if ((error as { code?: string }).code === "EADDRINUSE") {
      throw new ConfigError(
        `port ${config.port} on ${config.host} is already in use (is another Parley or another server running there?)`,
      );
    }
    throw error;
  }
}

const JOBS_START_DELAY_MS = 100;

function openSqlite(path: string): Database {
  const db = openDatabase(path);
  migrate(db);
  refreshPlannerStatistics(db, true);
  return db;
}

/** EX_TEMPFAIL: try again (systemd's Restart=on-failure starts the server again). */
export const STALLED_EXIT_CODE = 75;

/**
 * A statement PostgreSQL left unanswered past PARLEY_DB_TIMEOUT_MS leaves the bridge unusable (what
 * became of it cannot be known): rather than answer every later request with an error, the server
 * exits and its supervisor starts a fresh one, which connects again.
 */
function exitWhenStalled(config: Config, logger: Logger): void {
  sharedBridge().configure({
    timeoutMs: config.databaseTimeoutMs,
    onStall: (reason) => {
      logger.error("database stalled: exiting to be started again", { reason });
      process.exit(STALLED_EXIT_CODE);
    },
  });
}

async function openPostgres(url: string): Promise<Database> {
  return (await openPostgresServer(url)).asDatabase();
}

/** The database's server lock, or a ConfigError (the CLI says why and exits with 2). */
function lockDatabase(path: string): ServerLock | null {
  try {
    return holdServerLock(path);
  } catch (error) {
    if (error instanceof ServerLockedError) throw new ConfigError(error.message);
    throw error;
  }
}

export async function startServer(config: Config, out: (line: string) => void = console.log): Promise<RunningServer> {
  const logger = createLogger(config.logLevel);
  const onPostgres = isPostgresUrl(config.db);
  // Before anything is read or written: a second server on this SQLite file stops here. Several
  // may share a PostgreSQL database (docs/architecture.md "Two engines").
  const lock = onPostgres ? null : lockDatabase(config.db);
  let db: Database | null = null;
  let deps: Deps;
  let app: ReturnType<typeof createApp>;
  try {
    if (onPostgres) exitWhenStalled(config, logger);
    db = onPostgres ? await openPostgres(config.db) : openSqlite(config.db);
    // Group commit shares one SQLite commit among a turn's writes. On PostgreSQL a group would hold
    // the writers' lock (database.ts) for the whole turn while the other processes wait: each write
    // commits alone there (measured: 227 against 184 message creates a second for one process,
    // p99 1.3 s against 5.3 s for three; test/bench/README.md), and PostgreSQL groups WAL flushes
    // of concurrent commits itself.
    deps = createDeps({ db, config, logger, groupCommit: !onPostgres, hearOtherProcesses: true });
    app = createApp(deps);
    // The port first, before anything is written: a second server on a busy port stops here.
    listenAlone(app, config);
  } catch (error) {
    db?.close();
    lock?.release();
    throw error;
  }
  const first = await ensureFirstAccount(deps);
  deps.commits.flush(); // the first account is committed before its token is printed
  if (first) {
    out(`First run: created account ${first.account_id} with administrator ${first.email} (user ${first.user_id}).`);
    out(`API access token (shown once, keep it): ${first.api_access_token}`);
  }
  const port = app.server!.port!;
  const scheduler = new Scheduler(logger, deps.lease);
  for (const job of deps.jobs) scheduler.add(job);
  // The periodic jobs start a moment after the port opens: croner working out the schedules of the
  // minute, hourly and daily jobs takes a few ms (~0.6 ms a job), which the first requests (a
  // restart's health check) need not wait for. Nothing is late for it: no job is due sooner.
  const jobsStart = setTimeout(() => scheduler.start(), JOBS_START_DELAY_MS);
  deps.bus.wake(); // the events the last run left undelivered; a failure is logged, not unhandled
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  if (!config.files.publicUrlSet && config.port === 0) deps.files.links.setBase(url);
  if (first)
    out(
      `Sign in at ${url}/app as ${first.email} with password ${first.password} (shown once; change it with parley password)`,
    );
  out(`Parley listening on ${url}`);
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      // Open sockets would keep the server from stopping; clients are told to reconnect later.
      deps.realtime.shutdown();
      await app.stop();
      clearTimeout(jobsStart);
      await scheduler.stop();
      await deps.bus.drain();
      deps.commits.flush();
      checkpoint(db, "TRUNCATE");
      db.close();
      lock?.release();
    })());
  return { url, port, deps, stop };
}

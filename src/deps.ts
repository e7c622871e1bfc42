// The composition root: builds repos, services, the outbox and the bus around one database.
// No module-level singletons: tests build a fresh Deps on ":memory:" for each case.
import type { Database } from "bun:sqlite";
import type { Config } from "./config.ts";
import { loadConfig } from "./config.ts";
import { AccountsRepo } from "./db/accounts.repo.ts";
import { SessionsRepo } from "./db/sessions.repo.ts";
import { TokensRepo } from "./db/tokens.repo.ts";
import { createWriteTx, type WriteTx } from "./db/tx.ts";
import { UsersRepo } from "./db/users.repo.ts";
import { AccountsService } from "./domain/accounts.service.ts";
import { AuthService } from "./domain/auth.service.ts";
import { PasswordsService } from "./domain/passwords.service.ts";
import { SessionsService } from "./domain/sessions.service.ts";
import { SignInThrottle } from "./domain/sign-in-throttle.ts";
import { EventBus } from "./events/bus.ts";
import { EventOutbox } from "./events/outbox.ts";
import type { Job } from "./jobs/scheduler.ts";
import { systemClock, type Clock } from "./lib/clock.ts";
import { createLogger, type Logger } from "./lib/logger.ts";
import { PasswordHasher } from "./lib/passwords.ts";

export interface Deps {
  config: Config;
  db: Database;
  clock: Clock;
  logger: Logger;
  writeTx: WriteTx;
  outbox: EventOutbox;
  bus: EventBus;
  repos: ReturnType<typeof createRepos>;
  services: ReturnType<typeof createServices>;
  /** Periodic work the server's scheduler runs. */
  jobs: Job[];
}

function createRepos(db: Database) {
  return {
    accounts: new AccountsRepo(db),
    users: new UsersRepo(db),
    tokens: new TokensRepo(db),
    sessions: new SessionsRepo(db),
  };
}

interface ServiceBase extends Pick<Deps, "writeTx" | "clock" | "outbox" | "logger" | "config"> {
  hasher: PasswordHasher;
}

function createServices(base: ServiceBase, repos: ReturnType<typeof createRepos>) {
  const { writeTx, clock, hasher } = base;
  const sessions = new SessionsService({ ...repos, writeTx, clock, hasher, throttle: new SignInThrottle(clock) });
  return {
    auth: new AuthService({ ...repos, sessionAuth: sessions }),
    accounts: new AccountsService({ ...repos, writeTx, clock }),
    sessions,
    passwords: new PasswordsService({ ...repos, writeTx, clock, hasher }),
  };
}

export interface DepsOptions {
  db: Database;
  config?: Config;
  clock?: Clock;
  logger?: Logger;
  /** argon2id with its real cost by default; tests pass a cheaper one. */
  hasher?: PasswordHasher;
}

export function createDeps(opts: DepsOptions): Deps {
  const config = opts.config ?? loadConfig({}, {});
  const clock = opts.clock ?? systemClock;
  const logger = opts.logger ?? createLogger(config.logLevel);
  const { db } = opts;
  const bus = new EventBus(db, logger);
  const outbox = new EventOutbox(db, clock);
  const writeTx = createWriteTx(db, {
    afterCommit() {
      if (outbox.pending) {
        outbox.pending = false;
        bus.wake();
      }
    },
    afterRollback() {
      outbox.pending = false;
    },
  });
  const repos = createRepos(db);
  const services = createServices({ writeTx, clock, outbox, logger, config, hasher: opts.hasher ?? new PasswordHasher() }, repos);
  const jobs: Job[] = [
    // Catches up listeners after a restart, and retries listeners that failed.
    { name: "drain-events", pattern: "* * * * * *", run: () => bus.drain() },
    // A long read can starve auto-checkpoints; a passive checkpoint never blocks writers.
    { name: "wal-checkpoint", pattern: "0 * * * * *", run: () => void db.exec("PRAGMA wal_checkpoint(PASSIVE)") },
    { name: "prune-sessions", pattern: "0 7 * * * *", run: () => void services.sessions.prune() },
  ];
  return { config, db, clock, logger, writeTx, outbox, bus, repos, services, jobs };
}

// The composition root: builds repos, services, the outbox and the bus around one database.
// No module-level singletons: tests build a fresh Deps on ":memory:" for each case.
import type { Database } from "bun:sqlite";
import { createJobs } from "./deps/jobs.ts";
import type { Job } from "./jobs/scheduler.ts";
import { createRepos } from "./deps/repos.ts";
import { PostgresLease } from "./db/postgres/background-lease.ts";
import { PostgresClaims } from "./db/postgres/work-claims.ts";
import { notificationFrames } from "./realtime/notification-frames.ts";
import { type Lease, SOLE_CLAIMS, SOLE_LEASE } from "./lib/lease.ts";
import { isPostgres } from "./db/postgres/database.ts";
import { preparingLazily } from "./db/lazy-statements.ts";
import type { Reads } from "./db/reads.ts";
import { createServices } from "./deps/services.ts";
import type { Config } from "./config.ts";
import { loadConfig } from "./config.ts";
import { databaseAnswers } from "./db/maintenance.ts";
import { createWriteTx, type Commits, writing, type WriteTx } from "./db/tx.ts";
import { EventBus } from "./events/bus.ts";
import { automationListener } from "./events/listeners/automation.listener.ts";
import { notificationsListener } from "./events/listeners/notifications.listener.ts";
import { webhookFanOut } from "./events/listeners/webhooks.listener.ts";
import { agentBotFanOut } from "./events/listeners/agent-bots.listener.ts";
import { EventOutbox } from "./events/outbox.ts";
import { WebhookDeliverer, type OnCallbackGaveUp } from "./jobs/deliver-webhooks.job.ts";
import { systemClock, type Clock } from "./lib/clock.ts";
import { createLogger, type Logger } from "./lib/logger.ts";
import { PasswordHasher } from "./lib/passwords.ts";
import { createRealtime } from "./realtime/create.ts";
import { hearOtherProcesses } from "./deps/other-processes.ts";
import { createFileStore, type Files } from "./files/create.ts";
import type { RealtimeHub } from "./realtime/hub.ts";
import { createMail, type MailParts } from "./mail/create.ts";
import { loadSecretBox } from "./mail/secret-key.ts";
import { PushRelay } from "./jobs/push-relay.job.ts";
import pkg from "../package.json" with { type: "json" };

export interface Deps {
  config: Config;
  db: Database;
  clock: Clock;
  logger: Logger;
  writeTx: WriteTx;
  /** Group commit: what responses wait for (see src/db/tx.ts). */
  commits: Commits;
  outbox: EventOutbox;
  bus: EventBus;
  repos: ReturnType<typeof createRepos>;
  services: ReturnType<typeof createServices>;
  /** Sends webhook deliveries (the server's scheduler runs it; tests call drain()). */
  deliverer: WebhookDeliverer;
  /** Live event stream: /cable sockets, presence, replay. */
  realtime: RealtimeHub;
  /** Periodic work the server's scheduler runs. */
  jobs: Job[];
  /** Attachment storage and the links to its files. */
  files: Files;
  /** Email inboxes: the IMAP poller, the SMTP sender, the connection check. */
  mail: MailParts;
  /** Mobile pushes through PARLEY_PUSH_RELAY_URL. */
  pushRelay: PushRelay;
  /** Whether the database answers (GET /api): awaited on PostgreSQL's read pool. */
  dataServicesOk: () => boolean | Promise<boolean>;
  /** Whether this process runs the background work (several processes on PostgreSQL: src/lib/lease.ts). */
  lease: Lease;
}

/**
 * For crash tests only: PARLEY_TEST_CRASH_AT_COMMIT=N kills the process with SIGKILL just before the
 * Nth commit that carries events (a group's on SQLite, a single write's on PostgreSQL), the moment a
 * crash can take events back (test/e2e/realtime-crash.test.ts). Unset, it costs nothing.
 */
function crashHook(outbox: EventOutbox): (() => void) | undefined {
  const at = Number(process.env.PARLEY_TEST_CRASH_AT_COMMIT);
  if (!Number.isSafeInteger(at) || at < 1) return undefined;
  let commits = 0;
  return () => {
    if (outbox.pending && ++commits === at) process.kill(process.pid, "SIGKILL");
  };
}

export interface DepsOptions {
  db: Database;
  config?: Config;
  clock?: Clock;
  logger?: Logger;
  /**
   * What to do when an API inbox callback for a message finally fails: the messages feature marks the
   * message failed with the reason. Default: log it.
   */
  onCallbackGaveUp?: OnCallbackGaveUp;
  /** argon2id with its real cost by default; tests pass a cheaper one. */
  hasher?: PasswordHasher;
  /**
   * Share one commit among the writes of one event-loop turn (src/db/tx.ts). The server and the
   * test harness turn it on; one-shot commands (CLI) leave it off, since they exit without a turn.
   */
  groupCommit?: boolean;
  /**
   * Whether this process runs the event listeners and realtime fan-out after its own commits (the
   * server and tests do). One-shot commands leave their events to the server, whose drain and
   * fan-out jobs pick them up within a second: they close the database right after their write,
   * and work woken for a later turn would find it closed.
   */
  wakeListeners?: boolean;
  /**
   * Several servers on PostgreSQL: wake the event listeners and this process's sockets when another
   * process commits (LISTEN/NOTIFY), not only at the every-second poll. The server turns it on.
   */
  hearOtherProcesses?: boolean;
}

export function createDeps(opts: DepsOptions): Deps {
  const config = opts.config ?? loadConfig({}, {});
  const clock = opts.clock ?? systemClock;
  const logger = opts.logger ?? createLogger(config.logLevel);
  const { db } = opts;
  // The engine, decided once: PostgreSQL's processes share a lease, claims and notices; SQLite's
  // one process needs none of them.
  const postgres = isPostgres(db) ? db : null;
  const lease: Lease = postgres ? new PostgresLease(postgres) : SOLE_LEASE;
  const outbox = new EventOutbox(db, clock);
  // Bound late: the hub needs the services, which need writeTx.
  let realtime: RealtimeHub | null = null;
  // Commits of this process; with PRAGMA data_version (other processes' commits) it versions
  // cached read results (the summary reports).
  let commitCount = 0;
  const wakeListeners = opts.wakeListeners ?? true;
  // Deliveries written by a transaction are sent once it has committed: the pump reads committed rows.
  let deliveriesWritten = false;
  const { writeTx, commits } = createWriteTx(
    db,
    {
      afterCommit() {
        commitCount++;
        if (deliveriesWritten) {
          deliveriesWritten = false;
          deliverer.wake();
        }
        if (outbox.pending) {
          outbox.pending = false;
          repos.events.noteCommitted(); // the new head, before the next write
          if (wakeListeners) {
            bus.wake();
            realtime?.wake();
          }
        }
      },
      afterRollback() {
        outbox.pending = false;
        deliveriesWritten = false;
      },
      beforeCommit: crashHook(outbox),
    },
    { groupCommit: opts.groupCommit ?? false },
  );
  const bus = new EventBus(db, logger, lease, writeTx, commits.settled);
  const repos = createRepos(preparingLazily(db));
  // Bound late: the messages service is built after the deliverer that calls this.
  const onCallbackGaveUp: OnCallbackGaveUp =
    opts.onCallbackGaveUp ??
    ((delivery, reason) => {
      logger.warn("API inbox callback gave up", {
        delivery_id: delivery.deliveryId,
        message_id: delivery.messageId,
        reason,
      });
      return delivery.messageId === null ? undefined : markFailed(delivery.accountId, delivery.messageId, reason);
    });
  function* markFailed(accountId: number, messageId: number, reason: string): Reads<void> {
    const account = yield* repos.accounts.readById(accountId);
    if (account) yield* services.messageUpdates.markCallbackFailedSteps(account, messageId, reason);
  }
  const deliverer = new WebhookDeliverer(
    {
      deliveries: repos.webhookDeliveries,
      webhooks: repos.webhooks,
      agentBots: repos.agentBots,
      writeTx,
      committed: commits.settled,
      clock,
      logger,
      onCallbackGaveUp,
    },
    {
      timeoutMs: config.webhookTimeoutMs,
      allowPrivate: config.allowPrivateWebhooks,
      claims: postgres ? new PostgresClaims(postgres.claimsConnection) : SOLE_CLAIMS,
    },
  );
  const wakeDeliveries = () => {
    if (writing(db)) deliveriesWritten = true;
    else deliverer.wake();
  };
  outbox.onRecord(
    webhookFanOut({ webhooks: repos.webhooks, deliveries: repos.webhookDeliveries, clock, wake: wakeDeliveries }),
  );
  outbox.onRecord(
    agentBotFanOut({ agentBots: repos.agentBots, deliveries: repos.webhookDeliveries, clock, wake: wakeDeliveries }),
  );
  const readVersion = () => `${commitCount}:${repos.reports.dataVersion()}`;
  // The same, awaited on PostgreSQL (this server's count first: a commit during the await can only
  // make the version a new one, never an old one).
  const readVersionSoon = postgres
    ? async () => {
        const commits = commitCount;
        return `${commits}:${await repos.reports.dataVersionSoon()}`;
      }
    : undefined;
  const files = createFileStore(config.files, repos.serverSecrets, clock);
  const afterCommit = (fn: () => void, orElse = () => {}) => {
    const pending = commits.settled();
    if (pending) pending.then(fn, orElse);
    else queueMicrotask(fn);
  };
  // The key file sits beside the database file; a database in memory (tests) has no file to sit
  // beside, and PostgreSQL's processes share PARLEY_SECRET_KEY instead (loadConfig requires it).
  const noFile = db.filename === ":memory:" || db.filename === "" || postgres !== null;
  const secretBox = loadSecretBox(noFile ? { ...config.mail, keyFile: null } : config.mail);
  const services = createServices(
    {
      secretBox,
      writeTx,
      clock,
      outbox,
      logger,
      config,
      wakeDeliveries,
      readVersion,
      readVersionSoon,
      readsPooled: postgres !== null,
      files,
      afterCommit,
      hasher: opts.hasher ?? new PasswordHasher(),
      wakeResetMail: () => mail.resetSender.wake(),
    },
    repos,
  );
  const hub = createRealtime({
    repos,
    auth: services.auth,
    maxReplay: config.replayMaxEvents,
    clock,
    logger,
    links: files.links,
  });
  realtime = hub;
  const pushRelay = new PushRelay({
    ...repos,
    lease,
    writeTx,
    clock,
    logger,
    relayUrl: config.pushRelayUrl,
    installation: {
      // Made at start, and only when pushes are on: the relay knows an installation by it.
      identifier: config.pushRelayUrl
        ? repos.serverSecrets.getOrCreate("installation_identifier", () => crypto.randomUUID())
        : "",
      version: pkg.version,
      host: () => new URL(files.links.publicUrl).host,
    },
  });
  const mail = createMail({
    ...{ config, repos, services, outbox, store: files.store, secretBox, writeTx, clock, logger, lease },
    publicUrl: () => files.links.publicUrl,
  });
  // Several processes on PostgreSQL (the server): their commits and presence reach this one, and
  // this one's notifications their sockets.
  const others = opts.hearOtherProcesses ? postgres : null;
  bus.register(automationListener(services.automation));
  bus.register(
    notificationsListener({
      service: services.notifications,
      commits,
      announce: notificationFrames({ hub, service: services.notifications, logger, others }),
      committed: () => pushRelay.wake(),
    }),
  );
  const shared = others
    ? hearOtherProcesses({ db: others, bus, hub, rules: services.automationRules, clock, logger })
    : null;
  const jobs = createJobs({
    sharedPresence: shared,
    lease,
    db,
    bus,
    commits,
    deliverer,
    hub,
    mail,
    pushRelay,
    services,
    repos,
    config,
    clock,
    logger,
    writeTx,
  });
  return {
    config,
    db,
    clock,
    logger,
    writeTx,
    commits,
    outbox,
    bus,
    repos,
    services,
    deliverer,
    realtime: hub,
    jobs,
    files,
    mail,
    pushRelay,
    dataServicesOk: () => databaseAnswers(db),
    lease,
  };
}

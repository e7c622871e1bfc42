// The server's recurring work, in one list for the scheduler (src/jobs/scheduler.ts): croner
// patterns, each with what it runs and, for pumps with sends in flight, how it stops.
import type { Database } from "bun:sqlite";
import type { Config } from "../config.ts";
import { refreshPlannerStatistics } from "../db/open.ts";
import { checkpointWhenCommitted } from "../db/maintenance.ts";
import type { Commits, WriteTx } from "../db/tx.ts";
import { IDEMPOTENCY_TTL_SECONDS } from "../domain/messages.service.ts";
import type { EventBus } from "../events/bus.ts";
import type { WebhookDeliverer } from "../jobs/deliver-webhooks.job.ts";
import { pruneEvents } from "../jobs/prune-events.job.ts";
import type { PushRelay } from "../jobs/push-relay.job.ts";
import type { Job } from "../jobs/scheduler.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { MailParts } from "../mail/create.ts";
import type { RealtimeHub } from "../realtime/hub.ts";
import { HEARTBEAT_MS, type SharedPresence } from "../realtime/shared-presence.ts";
import type { createRepos } from "./repos.ts";
import type { createServices } from "./services.ts";
import type { Lease } from "../lib/lease.ts";

export interface JobParts {
  db: Database;
  bus: EventBus;
  commits: Commits;
  deliverer: WebhookDeliverer;
  hub: RealtimeHub;
  mail: MailParts;
  pushRelay: PushRelay;
  services: ReturnType<typeof createServices>;
  repos: ReturnType<typeof createRepos>;
  config: Config;
  clock: Clock;
  logger: Logger;
  writeTx: WriteTx;
  lease: Lease;
  /** Several processes on PostgreSQL: who is online through the others (null otherwise). */
  sharedPresence: SharedPresence | null;
}

export function createJobs(p: JobParts): Job[] {
  const { db, bus, commits, deliverer, hub, mail, pushRelay, services, repos, config, clock, logger, writeTx, lease } =
    p;
  const weekAgo = () => Math.floor(clock.nowMs() / 1000) - 7 * 86_400;
  return [
    // Several processes on PostgreSQL: one runs the jobs below (the others only the `everywhere`
    // ones); when it stops, another takes the lease within a second (src/lib/lease.ts).
    { name: "take-lease", pattern: "* * * * * *", everywhere: true, run: () => void lease.tryTake?.() },
    // Catches up listeners after a restart, and retries listeners that failed.
    { name: "drain-events", pattern: "* * * * * *", run: () => bus.drain() },
    // A long read can starve auto-checkpoints; a passive checkpoint never blocks writers. Inside the
    // open group-commit transaction it fails ("database table is locked"), and the every-second
    // drain opens one in the same tick: it runs once the connection's groups have committed.
    { name: "wal-checkpoint", pattern: "0 * * * * *", run: () => checkpointWhenCommitted(db, commits) },
    // Due retries and deliveries left pending by a crash; new ones are sent at once via wake(). Every
    // process sends, each delivery under its stream's claim (src/jobs/deliver-webhooks.job.ts).
    {
      name: "deliver-webhooks",
      pattern: "* * * * * *",
      everywhere: true,
      run: () => void deliverer.pump(),
      stop: () => deliverer.stop(),
    },
    { name: "repair-webhook-streams", pattern: "15 * * * * *", run: () => deliverer.repairStreams() },
    {
      name: "prune-webhook-deliveries",
      pattern: "30 7 * * * *",
      run: () => services.webhooks.pruneDeliveries().then(() => undefined),
    },
    { name: "prune-sessions", pattern: "0 7 * * * *", run: () => services.sessions.prune().then(() => undefined) },
    {
      name: "prune-password-resets",
      pattern: "0 9 * * * *",
      run: () => services.passwordResets.prune().then(() => undefined),
    },
    // docs/compatibility.md #14: snoozed conversations open when snoozed_until passes.
    {
      name: "reopen-snoozed",
      pattern: "*/10 * * * * *",
      run: () => services.conversationState.reopenDue().then(() => undefined),
    },
    // Events written by another process (the CLI) reach sockets within a second.
    { name: "realtime-fanout", pattern: "* * * * * *", everywhere: true, run: () => hub.wake() },
    ...(p.sharedPresence ? [presenceHeartbeat(p.sharedPresence)] : []),
    {
      name: "prune-events",
      pattern: "0 23 * * * *",
      run: () =>
        pruneEvents({ events: repos.events, writeTx, clock, logger }, config.eventRetentionDays).then(() => undefined),
    },
    // conversation_idle automation rules (ours): open conversations idle longer than a rule's idle_minutes.
    { name: "automation-idle", pattern: "0 * * * * *", run: () => services.automation.runIdle().then(() => undefined) },
    { name: "refresh-planner-statistics", pattern: "0 41 * * * *", run: () => refreshPlannerStatistics(db) },
    {
      name: "prune-idempotency-keys",
      pattern: "0 17 * * * *",
      run: () =>
        writeTx
          .steps(() => repos.idempotency.pruneSteps(Math.floor(clock.nowMs() / 1000) - IDEMPOTENCY_TTL_SECONDS))
          .then(() => undefined),
    },
    // Email inboxes: each mailbox is read every PARLEY_MAIL_POLL_SECONDS (the poller keeps the times).
    { name: "poll-email", pattern: "* * * * * *", run: () => mail.poller.poll().then(() => undefined) },
    // IMAP IDLE connections, matched to the inboxes' settings: new mail is read the moment it arrives.
    { name: "idle-email", pattern: "*/5 * * * * *", run: () => mail.idler.sync(), stop: () => mail.idler.stop() },
    // Replies whose retry came due, and replies a crash left; new ones are sent at once via wake().
    { name: "send-email", pattern: "*/5 * * * * *", run: () => mail.sender.pump(), stop: () => mail.sender.stop() },
    // Notifications by email come due a minute after they are made (unless read by then).
    {
      name: "send-notification-mail",
      pattern: "*/5 * * * * *",
      run: () => mail.notificationSender.pump(),
      stop: () => mail.notificationSender.stop(),
    },
    {
      name: "prune-notification-mail",
      pattern: "0 11 * * * *",
      run: () => writeTx.steps(() => repos.notificationMail.pruneSteps(weekAgo())).then(() => undefined),
    },
    // Mobile pushes whose retry came due, or that a crash left; new ones go at once via wake().
    { name: "send-push", pattern: "*/5 * * * * *", run: () => pushRelay.pump(), stop: () => pushRelay.stop() },
    {
      name: "prune-push",
      pattern: "0 13 * * * *",
      run: () => writeTx.steps(() => repos.push.pruneSteps(weekAgo())).then(() => undefined),
    },
    // Password-reset mail whose retry came due, or that a crash left; new ones are sent at once via wake().
    {
      name: "send-reset-mail",
      pattern: "*/5 * * * * *",
      run: () => mail.resetSender.pump(),
      stop: () => mail.resetSender.stop(),
    },
    // Files no row refers to (uploads of failed requests, a crash between file and commit).
    {
      name: "sweep-files",
      pattern: "0 23 4 * * *",
      run: () => services.attachments.sweep(clock.nowMs()).then(() => undefined),
    },
  ];
}

/** Tells the other processes this one is alive, and forgets those gone silent (shared-presence.ts). */
function presenceHeartbeat(presence: SharedPresence): Job {
  return {
    name: "presence-heartbeat",
    pattern: `*/${HEARTBEAT_MS / 1000} * * * * *`,
    everywhere: true,
    run: () => presence.tick(),
  };
}

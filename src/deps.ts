// The composition root: builds repos, services, the outbox and the bus around one database.
// No module-level singletons: tests build a fresh Deps on ":memory:" for each case.
import type { Database } from "bun:sqlite";
import type { Config } from "./config.ts";
import { loadConfig } from "./config.ts";
import { AccountLabelsRepo } from "./db/account-labels.repo.ts";
import { AccountsRepo } from "./db/accounts.repo.ts";
import { AutomationRulesRepo } from "./db/automation-rules.repo.ts";
import { AgentsRepo } from "./db/agents.repo.ts";
import { InboxesRepo } from "./db/inboxes.repo.ts";
import { PlatformRepo } from "./db/platform.repo.ts";
import { TeamsRepo } from "./db/teams.repo.ts";
import { SessionsRepo } from "./db/sessions.repo.ts";
import { ContactInboxesRepo } from "./db/contact-inboxes.repo.ts";
import { ContactsRepo } from "./db/contacts.repo.ts";
import { ContactsExportRepo } from "./db/contacts-export.repo.ts";
import { NotificationsRepo } from "./db/notifications.repo.ts";
import { CannedResponsesRepo } from "./db/canned-responses.repo.ts";
import { EventsRepo } from "./db/events.repo.ts";
import { RealtimeRepo } from "./db/realtime.repo.ts";
import { ContactSearch } from "./db/contacts-search.ts";
import { ConversationRefsRepo } from "./db/conversation-refs.repo.ts";
import { ConversationsRepo } from "./db/conversations.repo.ts";
import { IdempotencyRepo } from "./db/idempotency.repo.ts";
import { LabelsRepo } from "./db/labels.repo.ts";
import { MessagesRepo } from "./db/messages.repo.ts";
import { CsatRepo } from "./db/csat.repo.ts";
import { PublicRepo } from "./db/public.repo.ts";
import { WidgetRepo } from "./db/widget.repo.ts";
import { ReportingEventsRepo } from "./db/reporting-events.repo.ts";
import { ReportsRepo } from "./db/reports.repo.ts";
import { ContactMergeRepo } from "./db/contact-merge.repo.ts";
import { ContactNotesRepo } from "./db/contact-notes.repo.ts";
import { CustomFiltersRepo } from "./db/custom-filters.repo.ts";
import { RecordFiltersRepo } from "./db/record-filters.repo.ts";
import { TokensRepo } from "./db/tokens.repo.ts";
import { AttachmentsRepo } from "./db/attachments.repo.ts";
import { CustomAttributeDefinitionsRepo } from "./db/custom-attribute-definitions.repo.ts";
import { ParticipantsRepo } from "./db/participants.repo.ts";
import { AgentBotsRepo } from "./db/agent-bots.repo.ts";
import { ServerSecretsRepo } from "./db/server-secrets.repo.ts";
import { refreshPlannerStatistics } from "./db/open.ts";
import { checkpoint, databaseAnswers } from "./db/maintenance.ts";
import { createWriteTx, type Commits, type WriteTx } from "./db/tx.ts";
import { UsersRepo } from "./db/users.repo.ts";
import { WebhookDeliveriesRepo } from "./db/webhook-deliveries.repo.ts";
import { WebhooksRepo } from "./db/webhooks.repo.ts";
import { AccountsService } from "./domain/accounts.service.ts";
import { AttachmentsService } from "./domain/attachments.service.ts";
import { CredentialsService } from "./domain/credentials.service.ts";
import { CustomAttributeDefinitionsService } from "./domain/custom-attribute-definitions.service.ts";
import { CustomAttributeValues } from "./domain/custom-attribute-values.ts";
import { ParticipantsService } from "./domain/participants.service.ts";
import { AgentBotsService } from "./domain/agent-bots.service.ts";
import { AgentsService } from "./domain/agents.service.ts";
import { AuthService } from "./domain/auth.service.ts";
import { AutomationEngine } from "./domain/automation-engine.ts";
import { AutomationExecutor } from "./domain/automation-executor.ts";
import { AutomationRulesService } from "./domain/automation-rules.service.ts";
import { InboxMembersService } from "./domain/inbox-members.service.ts";
import { InboxesService } from "./domain/inboxes.service.ts";
import { LabelsService } from "./domain/labels.service.ts";
import { PlatformService } from "./domain/platform.service.ts";
import { TeamsService } from "./domain/teams.service.ts";
import { WebhooksService } from "./domain/webhooks.service.ts";
import { PasswordsService } from "./domain/passwords.service.ts";
import { SessionsService } from "./domain/sessions.service.ts";
import { SignInThrottle } from "./domain/sign-in-throttle.ts";
import { ContactsService } from "./domain/contacts.service.ts";
import { ContactsTransferService } from "./domain/contacts-transfer.service.ts";
import { NotificationsService } from "./domain/notifications.service.ts";
import { CannedResponsesService } from "./domain/canned-responses.service.ts";
import { ConversationAccess } from "./domain/conversation-access.ts";
import { ConversationEvents } from "./domain/conversation-events.ts";
import { ConversationStateService } from "./domain/conversation-state.service.ts";
import { ConversationViews } from "./domain/conversation-view.ts";
import { ConversationsService } from "./domain/conversations.service.ts";
import { IDEMPOTENCY_TTL_SECONDS, MessagesService } from "./domain/messages.service.ts";
import { TypingService } from "./domain/typing.service.ts";
import { CsatService } from "./domain/csat.service.ts";
import { PublicContactsService } from "./domain/public-contacts.service.ts";
import { PublicConversationsService } from "./domain/public-conversations.service.ts";
import { PublicLimits } from "./domain/public-limits.ts";
import { PublicMessagesService } from "./domain/public-messages.service.ts";
import { WidgetService } from "./domain/widget.service.ts";
import { WidgetConversationsService } from "./domain/widget-conversations.service.ts";
import { ReportingRecorder } from "./domain/reporting-recorder.ts";
import { ReportsService } from "./domain/reports.service.ts";
import { ContactMergeService } from "./domain/contact-merge.service.ts";
import { ContactNotesService } from "./domain/contact-notes.service.ts";
import { ContactableInboxes } from "./domain/contactable-inboxes.ts";
import { CustomFiltersService } from "./domain/custom-filters.service.ts";
import { RecordFiltersService } from "./domain/record-filters.service.ts";
import { EventBus } from "./events/bus.ts";
import { automationListener } from "./events/listeners/automation.listener.ts";
import { notificationsListener } from "./events/listeners/notifications.listener.ts";
import { webhookFanOut } from "./events/listeners/webhooks.listener.ts";
import { agentBotFanOut } from "./events/listeners/agent-bots.listener.ts";
import { EventOutbox } from "./events/outbox.ts";
import { WebhookDeliverer, type OnCallbackGaveUp } from "./jobs/deliver-webhooks.job.ts";
import { pruneEvents } from "./jobs/prune-events.job.ts";
import type { Job } from "./jobs/scheduler.ts";
import { systemClock, type Clock } from "./lib/clock.ts";
import { createLogger, type Logger } from "./lib/logger.ts";
import { PasswordHasher } from "./lib/passwords.ts";
import { createRealtime } from "./realtime/create.ts";
import { createFileStore, type Files } from "./files/create.ts";
import type { RealtimeHub } from "./realtime/hub.ts";

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
  /** Whether the database answers (GET /api). */
  dataServicesOk: () => boolean;
}

function createRepos(db: Database) {
  return {
    accounts: new AccountsRepo(db),
    users: new UsersRepo(db),
    tokens: new TokensRepo(db),
    inboxes: new InboxesRepo(db),
    agents: new AgentsRepo(db),
    teams: new TeamsRepo(db),
    platform: new PlatformRepo(db),
    webhooks: new WebhooksRepo(db),
    webhookDeliveries: new WebhookDeliveriesRepo(db),
    sessions: new SessionsRepo(db),
    contacts: new ContactsRepo(db),
    contactsExport: new ContactsExportRepo(db),
    notifications: new NotificationsRepo(db),
    cannedResponses: new CannedResponsesRepo(db),
    contactSearch: new ContactSearch(db),
    contactInboxes: new ContactInboxesRepo(db),
    conversations: new ConversationsRepo(db),
    conversationRefs: new ConversationRefsRepo(db),
    messages: new MessagesRepo(db),
    labels: new LabelsRepo(db),
    accountLabels: new AccountLabelsRepo(db),
    automationRules: new AutomationRulesRepo(db),
    idempotency: new IdempotencyRepo(db),
    events: new EventsRepo(db),
    realtime: new RealtimeRepo(db),
    publicRepo: new PublicRepo(db),
    widgetRepo: new WidgetRepo(db),
    csat: new CsatRepo(db),
    reportingEvents: new ReportingEventsRepo(db),
    reports: new ReportsRepo(db),
    recordFilters: new RecordFiltersRepo(db),
    customFilters: new CustomFiltersRepo(db),
    contactNotes: new ContactNotesRepo(db),
    contactMerge: new ContactMergeRepo(db),
    attachments: new AttachmentsRepo(db),
    customAttributeDefinitions: new CustomAttributeDefinitionsRepo(db),
    participants: new ParticipantsRepo(db),
    agentBots: new AgentBotsRepo(db),
    serverSecrets: new ServerSecretsRepo(db),
  };
}

interface ServiceBase extends Pick<Deps, "writeTx" | "clock" | "outbox" | "logger" | "config"> {
  wakeDeliveries: () => void;
  hasher: PasswordHasher;
  /** Changes whenever the database may have changed (for caches of read results). */
  readVersion: () => string;
  files: Files;
  /** Runs a function once the writes made so far are committed. */
  afterCommit: (fn: () => void) => void;
}

function createServices(base: ServiceBase, repos: ReturnType<typeof createRepos>) {
  const { writeTx, clock, outbox, wakeDeliveries, hasher } = base;
  const attachments = new AttachmentsService({
    ...repos,
    ...base.files,
    logger: base.logger,
    afterCommit: base.afterCommit,
  });
  const accounts = new AccountsService({ ...repos, writeTx, clock });
  const sessions = new SessionsService({ ...repos, writeTx, clock, hasher, throttle: new SignInThrottle(clock) });
  const inboxes = new InboxesService({ ...repos, writeTx, clock, outbox });
  const access = new ConversationAccess(repos);
  const views = new ConversationViews(repos, base.files.links);
  const reporting = new ReportingRecorder({ ...repos, clock });
  const events = new ConversationEvents({ ...repos, views, outbox, clock, reporting });
  const attributeValues = new CustomAttributeValues(repos);
  const contacts = new ContactsService({
    ...repos,
    access,
    writeTx,
    clock,
    outbox,
    attachmentsService: attachments,
    attributeValues,
  });
  const messages = new MessagesService({
    ...repos,
    contactsService: contacts,
    events,
    reporting,
    attachmentsService: attachments,
    writeTx,
    clock,
  });
  const conversations = new ConversationsService({
    ...repos,
    access,
    views,
    events,
    contactsService: contacts,
    messagesService: messages,
    attributeValues,
    writeTx,
    clock,
  });
  const csat = new CsatService({ ...repos, access, messagesService: messages, clock });
  const conversationState = new ConversationStateService({
    ...repos,
    conversationsService: conversations,
    contactsService: contacts,
    events,
    writeTx,
    clock,
    afterResolved: (_a, row) => csat.afterResolved(row),
  });
  const automationRules = new AutomationRulesService({ ...repos, writeTx, clock });
  const executor = new AutomationExecutor({
    ...repos,
    conversationsService: conversations,
    conversationState,
    messagesService: messages,
    contactsService: contacts,
    events,
    writeTx,
    clock,
    wakeDeliveries,
  });
  const automation = new AutomationEngine({
    ...repos,
    rules: automationRules,
    executor,
    writeTx,
    clock,
    logger: base.logger,
  });
  const limits = new PublicLimits(base.config.publicLimits, clock);
  const publicMessages = new PublicMessagesService({
    ...repos,
    messagesService: messages,
    csat,
    limits,
    writeTx,
    clock,
  });
  const publicConversations = new PublicConversationsService({
    ...repos,
    conversationsService: conversations,
    conversationState,
    messagesService: messages,
    publicMessages,
    events,
    limits,
    writeTx,
    clock,
  });
  const publicContacts = new PublicContactsService({ ...repos, contactsService: contacts, limits, writeTx, clock });
  return {
    attachments,
    auth: new AuthService({ ...repos, sessionAuth: sessions }),
    accounts,
    sessions,
    passwords: new PasswordsService({ ...repos, writeTx, clock, hasher }),
    credentials: new CredentialsService({ ...repos, writeTx, clock }),
    customAttributeDefinitions: new CustomAttributeDefinitionsService({ ...repos, writeTx, clock }),
    participants: new ParticipantsService({ ...repos, writeTx, clock }),
    agentBots: new AgentBotsService({ ...repos, writeTx, clock }),
    inboxes,
    inboxMembers: new InboxMembersService({ ...repos, inboxesService: inboxes, writeTx, clock }),
    agents: new AgentsService({
      ...repos,
      accounts,
      writeTx,
      clock,
      onRemoved: (account, userId) => conversationState.unassignAgent(account, userId),
    }),
    teams: new TeamsService({ ...repos, writeTx, clock }),
    platform: new PlatformService({
      ...repos,
      accountsService: accounts,
      attachmentsService: attachments,
      writeTx,
      clock,
    }),
    webhooks: new WebhooksService({
      webhooks: repos.webhooks,
      deliveries: repos.webhookDeliveries,
      writeTx,
      clock,
      wakeDeliveries,
    }),
    contacts,
    contactsTransfer: new ContactsTransferService({ ...repos, contactsService: contacts }),
    notifications: new NotificationsService({ ...repos, writeTx, clock }),
    cannedResponses: new CannedResponsesService({ ...repos, writeTx, clock }),
    conversations,
    conversationState,
    messages,
    typing: new TypingService({ events, contacts: repos.contacts, writeTx }),
    labels: new LabelsService({
      ...repos,
      events,
      views,
      writeTx,
      clock,
      onRenamed: (account, from, to) => automationRules.renameLabel(account, from, to),
    }),
    automationRules,
    automation,
    csat,
    publicLimits: limits,
    publicContacts,
    publicConversations,
    publicMessages,
    reports: new ReportsService({ ...repos, clock, readVersion: base.readVersion }),
    recordFilters: new RecordFiltersService({ ...repos, access, clock }),
    customFilters: new CustomFiltersService({ ...repos, writeTx, clock }),
    contactNotes: new ContactNotesService({ ...repos, contactsService: contacts, writeTx, clock }),
    contactMerge: new ContactMergeService({ ...repos, contactsService: contacts, outbox, writeTx, clock }),
    contactableInboxes: new ContactableInboxes({ ...repos, contactsService: contacts }),
    widget: new WidgetService({ ...repos, contactsService: contacts, publicContacts, writeTx, clock }),
    widgetConversations: new WidgetConversationsService({
      ...repos,
      contactsService: contacts,
      conversationsService: conversations,
      publicConversations,
      publicMessages,
      events,
      outbox,
      writeTx,
    }),
  };
}

/**
 * For crash tests only: PARLEY_TEST_CRASH_AT_COMMIT=N kills the process with SIGKILL just before the
 * Nth group commit that carries events, the moment a crash can take events back
 * (test/e2e/realtime-crash.test.ts). Unset, it costs nothing.
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
}

export function createDeps(opts: DepsOptions): Deps {
  const config = opts.config ?? loadConfig({}, {});
  const clock = opts.clock ?? systemClock;
  const logger = opts.logger ?? createLogger(config.logLevel);
  const { db } = opts;
  const bus = new EventBus(db, logger);
  const outbox = new EventOutbox(db, clock);
  // Bound late: the hub needs the services, which need writeTx.
  let realtime: RealtimeHub | null = null;
  // Commits of this process; with PRAGMA data_version (other processes' commits) it versions
  // cached read results (the summary reports).
  let commitCount = 0;
  const { writeTx, commits } = createWriteTx(
    db,
    {
      afterCommit() {
        commitCount++;
        if (outbox.pending) {
          outbox.pending = false;
          repos.events.committedHead(); // right after COMMIT, before the next write: the new head
          bus.wake();
          realtime?.wake();
        }
      },
      afterRollback() {
        outbox.pending = false;
      },
      beforeGroupCommit: crashHook(outbox),
    },
    { groupCommit: opts.groupCommit ?? false },
  );
  const repos = createRepos(db);
  // Bound late: the messages service is built after the deliverer that calls this.
  const onCallbackGaveUp: OnCallbackGaveUp =
    opts.onCallbackGaveUp ??
    ((delivery, reason) => {
      logger.warn("API inbox callback gave up", {
        delivery_id: delivery.deliveryId,
        message_id: delivery.messageId,
        reason,
      });
      const account = repos.accounts.byId(delivery.accountId);
      if (account && delivery.messageId !== null)
        services.messages.markCallbackFailed(account, delivery.messageId, reason);
    });
  const deliverer = new WebhookDeliverer(
    {
      deliveries: repos.webhookDeliveries,
      webhooks: repos.webhooks,
      agentBots: repos.agentBots,
      writeTx,
      clock,
      logger,
      onCallbackGaveUp,
    },
    { timeoutMs: config.webhookTimeoutMs, allowPrivate: config.allowPrivateWebhooks },
  );
  const wakeDeliveries = () => deliverer.wake();
  outbox.onRecord(
    webhookFanOut({ webhooks: repos.webhooks, deliveries: repos.webhookDeliveries, clock, wake: wakeDeliveries }),
  );
  outbox.onRecord(
    agentBotFanOut({ agentBots: repos.agentBots, deliveries: repos.webhookDeliveries, clock, wake: wakeDeliveries }),
  );
  const readVersion = () => `${commitCount}:${repos.reports.dataVersion()}`;
  const files = createFileStore(config.files, repos.serverSecrets, clock);
  const afterCommit = (fn: () => void) => {
    const pending = commits.settled();
    if (pending) pending.then(fn, () => {});
    else queueMicrotask(fn);
  };
  const services = createServices(
    {
      writeTx,
      clock,
      outbox,
      logger,
      config,
      wakeDeliveries,
      readVersion,
      files,
      afterCommit,
      hasher: opts.hasher ?? new PasswordHasher(),
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
  bus.register(automationListener(services.automation));
  bus.register(
    notificationsListener({
      service: services.notifications,
      commits,
      tell: (c) => hub.tellUser(c.accountId, c.userId, "notification.created", c.data),
    }),
  );
  const jobs: Job[] = [
    // Catches up listeners after a restart, and retries listeners that failed.
    { name: "drain-events", pattern: "* * * * * *", run: () => bus.drain() },
    // A long read can starve auto-checkpoints; a passive checkpoint never blocks writers.
    { name: "wal-checkpoint", pattern: "0 * * * * *", run: () => checkpoint(db, "PASSIVE") },
    // Due retries and deliveries left pending by a crash; new ones are sent at once via wake().
    {
      name: "deliver-webhooks",
      pattern: "* * * * * *",
      run: () => void deliverer.pump(),
      stop: () => deliverer.stop(),
    },
    { name: "repair-webhook-streams", pattern: "15 * * * * *", run: () => deliverer.repairStreams() },
    { name: "prune-webhook-deliveries", pattern: "30 7 * * * *", run: () => void services.webhooks.pruneDeliveries() },
    { name: "prune-sessions", pattern: "0 7 * * * *", run: () => void services.sessions.prune() },
    // docs/compatibility.md #14: snoozed conversations open when snoozed_until passes.
    { name: "reopen-snoozed", pattern: "*/10 * * * * *", run: () => void services.conversationState.reopenDue() },
    // Events written by another process (the CLI) reach sockets within a second.
    { name: "realtime-fanout", pattern: "* * * * * *", run: () => hub.wake() },
    {
      name: "prune-events",
      pattern: "0 23 * * * *",
      run: () => pruneEvents({ events: repos.events, writeTx, clock, logger }, config.eventRetentionDays),
    },
    // conversation_idle automation rules (ours): open conversations idle longer than a rule's idle_minutes.
    { name: "automation-idle", pattern: "0 * * * * *", run: () => services.automation.runIdle().then(() => undefined) },
    { name: "refresh-planner-statistics", pattern: "0 41 * * * *", run: () => refreshPlannerStatistics(db) },
    {
      name: "prune-idempotency-keys",
      pattern: "0 17 * * * *",
      run: () => void repos.idempotency.prune(Math.floor(clock.nowMs() / 1000) - IDEMPOTENCY_TTL_SECONDS),
    },
    // Files no row refers to (uploads of failed requests, a crash between file and commit).
    {
      name: "sweep-files",
      pattern: "0 23 4 * * *",
      run: () => services.attachments.sweep(clock.nowMs()).then(() => undefined),
    },
  ];
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
    dataServicesOk: () => databaseAnswers(db),
  };
}

// Every service, wired to the repositories and to each other (the composition root, src/deps.ts).
import { EmailIntakeService } from "../domain/email-intake.service.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import { AccountsService } from "../domain/accounts.service.ts";
import { AttachmentsService } from "../domain/attachments.service.ts";
import { CredentialsService } from "../domain/credentials.service.ts";
import { CustomAttributeDefinitionsService } from "../domain/custom-attribute-definitions.service.ts";
import { CustomAttributeValues } from "../domain/custom-attribute-values.ts";
import { ParticipantsService } from "../domain/participants.service.ts";
import { AgentBotsService } from "../domain/agent-bots.service.ts";
import { AgentsService } from "../domain/agents.service.ts";
import { AuthService } from "../domain/auth.service.ts";
import { AutomationEngine } from "../domain/automation-engine.ts";
import { AutomationExecutor } from "../domain/automation-executor.ts";
import { AutomationRulesService } from "../domain/automation-rules.service.ts";
import { InboxMembersService } from "../domain/inbox-members.service.ts";
import { InboxesService } from "../domain/inboxes.service.ts";
import { LabelsService } from "../domain/labels.service.ts";
import { PlatformService } from "../domain/platform.service.ts";
import { TeamsService } from "../domain/teams.service.ts";
import { WebhooksService } from "../domain/webhooks.service.ts";
import { PasswordResetsService } from "../domain/password-resets.service.ts";
import { PushSubscriptionsService } from "../domain/push-subscriptions.service.ts";
import { PasswordsService } from "../domain/passwords.service.ts";
import { SessionsService } from "../domain/sessions.service.ts";
import { SignInThrottle } from "../domain/sign-in-throttle.ts";
import { ContactReads } from "../domain/contact-reads.ts";
import { ContactsService } from "../domain/contacts.service.ts";
import { ContactsTransferService } from "../domain/contacts-transfer.service.ts";
import { NotificationsService } from "../domain/notifications.service.ts";
import { CannedResponsesService } from "../domain/canned-responses.service.ts";
import { ConversationAccess } from "../domain/conversation-access.ts";
import { ConversationEvents } from "../domain/conversation-events.ts";
import { ConversationStateService } from "../domain/conversation-state.service.ts";
import { ConversationViews } from "../domain/conversation-view.ts";
import { ConversationsService } from "../domain/conversations.service.ts";
import { MessagesService } from "../domain/messages.service.ts";
import { MessageUpdatesService } from "../domain/message-updates.service.ts";
import { BulkActionsService } from "../domain/bulk-actions.service.ts";
import { SearchService } from "../domain/search.service.ts";
import { ProfileService } from "../domain/profile.service.ts";
import { DashboardAppsService } from "../domain/dashboard-apps.service.ts";
import { MacrosService } from "../domain/macros.service.ts";
import { TypingService } from "../domain/typing.service.ts";
import { CsatService } from "../domain/csat.service.ts";
import { ReportingRecorder } from "../domain/reporting-recorder.ts";
import { ReportsService } from "../domain/reports.service.ts";
import { ContactMergeService } from "../domain/contact-merge.service.ts";
import { ContactNotesService } from "../domain/contact-notes.service.ts";
import { ContactableInboxes } from "../domain/contactable-inboxes.ts";
import { CustomFiltersService } from "../domain/custom-filters.service.ts";
import { RecordFiltersService } from "../domain/record-filters.service.ts";
import type { PasswordHasher } from "../lib/passwords.ts";
import type { Files } from "../files/create.ts";
import type { Deps } from "../deps.ts";
import type { createRepos } from "./repos.ts";
import { createPublicServices } from "./public-services.ts";

export interface ServiceBase extends Pick<Deps, "writeTx" | "clock" | "outbox" | "logger" | "config"> {
  wakeDeliveries: () => void;
  hasher: PasswordHasher;
  /** Changes whenever the database may have changed (for caches of read results). */
  readVersion: () => string;
  /** readVersion awaited, where reading it would block the process (PostgreSQL). */
  readVersionSoon?: () => Promise<string>;
  /**
   * Whether a Reads run with readSoon goes to PostgreSQL's read pool; else it runs in place, where
   * a hot path may call the repositories' plain statements instead (no generators).
   */
  readsPooled?: boolean;
  files: Files;
  /** Runs a function once the writes made so far are committed. */
  afterCommit: (fn: () => void, orElse?: () => void) => void;
  /** Seals and opens mailbox passwords and unsent reset links (src/mail/secret-key.ts). */
  secretBox: SecretBox;
  /** Wakes the password-reset mail sender (bound once the mail parts exist). */
  wakeResetMail: () => void;
}

export function createServices(base: ServiceBase, repos: ReturnType<typeof createRepos>) {
  const { writeTx, clock, outbox, wakeDeliveries, hasher } = base;
  const attachments = new AttachmentsService({
    ...repos,
    ...base.files,
    logger: base.logger,
    afterCommit: base.afterCommit,
  });
  const accounts = new AccountsService({ ...repos, writeTx, clock });
  const throttle = new SignInThrottle(clock);
  const sessions = new SessionsService({ ...repos, writeTx, clock, hasher, throttle, logger: base.logger });
  const inboxes = new InboxesService({ ...repos, writeTx, clock, outbox, secretBox: base.secretBox });
  const access = new ConversationAccess(repos);
  const views = new ConversationViews(repos, base.files.links);
  const reporting = new ReportingRecorder({ ...repos, clock });
  const events = new ConversationEvents({ ...repos, views, outbox, clock, reporting });
  const attributeValues = new CustomAttributeValues(repos);
  const contactReads = new ContactReads(repos);
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
  const messageUpdates = new MessageUpdatesService({
    ...repos,
    events,
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
    contactReads,
    messagesService: messages,
    messageUpdates,
    attributeValues,
    writeTx,
    clock,
  });
  const csat = new CsatService({ ...repos, access, messagesService: messages, clock });
  const conversationState = new ConversationStateService({
    ...repos,
    contactsService: contacts,
    events,
    writeTx,
    clock,
    afterResolved: (_a, row) => csat.afterResolvedSteps(row),
  });
  const automationRules = new AutomationRulesService({ ...repos, writeTx, clock });
  const executor = new AutomationExecutor({
    ...repos,
    conversationsService: conversations,
    conversationState,
    messagesService: messages,
    contactsService: contacts,
    events,
    clock,
    wakeDeliveries,
  });
  const automation = new AutomationEngine({
    ...repos,
    pooled: base.readsPooled === true,
    rules: automationRules,
    executor,
    writeTx,
    clock,
    logger: base.logger,
  });
  const passwords = new PasswordsService({ ...repos, writeTx, clock, hasher });
  const passwordResets = new PasswordResetsService({
    ...repos,
    passwords,
    writeTx,
    clock,
    hasher,
    secretBox: base.secretBox,
    mailConfigured: base.config.mail.accountMail !== null,
    afterCommit: base.afterCommit,
    wakeSender: base.wakeResetMail,
  });
  const visitors = createPublicServices(base, repos, {
    attachments,
    messages,
    messageUpdates,
    conversations,
    conversationState,
    contacts,
    csat,
    events,
  });
  return {
    attachments,
    auth: new AuthService({ ...repos, sessionAuth: sessions }),
    accounts,
    sessions,
    passwords,
    passwordResets,
    pushSubscriptions: new PushSubscriptionsService({ ...repos, writeTx, clock }),
    profile: new ProfileService({ ...repos, passwords, writeTx, clock, hasher }),
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
      onRemoved: (account, userId) => conversationState.unassignAgentSteps(account, userId),
      invitations: passwordResets,
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
    contactReads,
    contactsTransfer: new ContactsTransferService({ ...repos, contactsService: contacts }),
    notifications: new NotificationsService({
      ...repos,
      writeTx,
      clock,
      mailConfigured: base.config.mail.accountMail !== null,
      pushConfigured: base.config.pushRelayUrl !== null,
    }),
    cannedResponses: new CannedResponsesService({ ...repos, writeTx, clock }),
    dashboardApps: new DashboardAppsService({ ...repos, writeTx, clock }),
    macros: new MacrosService({ ...repos, access, executor, writeTx, clock }),
    conversations,
    conversationState,
    bulkActions: new BulkActionsService({
      ...repos,
      access,
      conversationsService: conversations,
      conversationState,
      writeTx,
    }),
    messages,
    messageUpdates,
    search: new SearchService({ ...repos, access, contactReads, clock }),
    emailIntake: new EmailIntakeService({
      ...repos,
      contactsService: contacts,
      conversationsService: conversations,
      messagesService: messages,
      attachmentsService: attachments,
      writeTx,
      clock,
    }),
    typing: new TypingService({ events, contacts: repos.contacts, writeTx }),
    labels: new LabelsService({
      ...repos,
      events,
      views,
      writeTx,
      clock,
      onRenamed: {
        steps: (account, from, to) => automationRules.renameLabelSteps(account, from, to),
        committed: (account) => automationRules.forget(account),
      },
    }),
    automationRules,
    automation,
    csat,
    ...visitors,
    reports: new ReportsService({
      ...repos,
      clock,
      readVersion: base.readVersion,
      readVersionSoon: base.readVersionSoon,
    }),
    recordFilters: new RecordFiltersService({
      ...repos,
      access,
      clock,
      readVersion: base.readVersion,
      readVersionSoon: base.readVersionSoon,
    }),
    customFilters: new CustomFiltersService({ ...repos, writeTx, clock }),
    contactNotes: new ContactNotesService({ ...repos, contactReads, writeTx, clock }),
    contactMerge: new ContactMergeService({ ...repos, contactsService: contacts, outbox, writeTx, clock }),
    contactableInboxes: new ContactableInboxes({ ...repos, contactReads }),
  };
}

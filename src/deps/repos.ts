// Every repository of one database (the composition root, src/deps.ts, builds them once).
import type { Database } from "bun:sqlite";
import { AccountLabelsRepo } from "../db/account-labels.repo.ts";
import { AccountsRepo } from "../db/accounts.repo.ts";
import { AutomationRulesRepo } from "../db/automation-rules.repo.ts";
import { AgentsRepo } from "../db/agents.repo.ts";
import { InboxesRepo } from "../db/inboxes.repo.ts";
import { PlatformRepo } from "../db/platform.repo.ts";
import { TeamsRepo } from "../db/teams.repo.ts";
import { SessionsRepo } from "../db/sessions.repo.ts";
import { ContactInboxesRepo } from "../db/contact-inboxes.repo.ts";
import { ContactsRepo } from "../db/contacts.repo.ts";
import { ContactsExportRepo } from "../db/contacts-export.repo.ts";
import { NotificationsRepo } from "../db/notifications.repo.ts";
import { CannedResponsesRepo } from "../db/canned-responses.repo.ts";
import { EventsRepo } from "../db/events.repo.ts";
import { RealtimeRepo } from "../db/realtime.repo.ts";
import { ContactSearch } from "../db/contacts-search.ts";
import { ContactSearchOnPostgres } from "../db/contacts-search-postgres.ts";
import { isPostgres } from "../db/postgres/database.ts";
import { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import { ConversationListsRepo } from "../db/conversation-lists.repo.ts";
import { ConversationsRepo } from "../db/conversations.repo.ts";
import { IdempotencyRepo } from "../db/idempotency.repo.ts";
import { LabelsRepo } from "../db/labels.repo.ts";
import { MessagesRepo } from "../db/messages.repo.ts";
import { CsatRepo } from "../db/csat.repo.ts";
import { PublicRepo } from "../db/public.repo.ts";
import { WidgetRepo } from "../db/widget.repo.ts";
import { ReportingEventsRepo } from "../db/reporting-events.repo.ts";
import { ReportsRepo } from "../db/reports.repo.ts";
import { ContactMergeRepo } from "../db/contact-merge.repo.ts";
import { ContactNotesRepo } from "../db/contact-notes.repo.ts";
import { CustomFiltersRepo } from "../db/custom-filters.repo.ts";
import { RecordFiltersRepo } from "../db/record-filters.repo.ts";
import { TokensRepo } from "../db/tokens.repo.ts";
import { AccountCallersRepo } from "../db/account-callers.repo.ts";
import { AttachmentsRepo } from "../db/attachments.repo.ts";
import { CustomAttributeDefinitionsRepo } from "../db/custom-attribute-definitions.repo.ts";
import { ParticipantsRepo } from "../db/participants.repo.ts";
import { AgentBotsRepo } from "../db/agent-bots.repo.ts";
import { ServerSecretsRepo } from "../db/server-secrets.repo.ts";
import { UsersRepo } from "../db/users.repo.ts";
import { WebhookDeliveriesRepo } from "../db/webhook-deliveries.repo.ts";
import { WebhooksRepo } from "../db/webhooks.repo.ts";
import { EmailChannelsRepo } from "../db/email-channels.repo.ts";
import { EmailOutboxRepo } from "../db/email-outbox.repo.ts";
import { NotificationMailRepo } from "../db/notification-mail.repo.ts";
import { PasswordResetsRepo } from "../db/password-resets.repo.ts";
import { PushRepo } from "../db/push.repo.ts";
import { SearchRepo } from "../db/search.repo.ts";
import { DashboardAppsRepo } from "../db/dashboard-apps.repo.ts";
import { MacrosRepo } from "../db/macros.repo.ts";

export function createRepos(db: Database) {
  const accounts = new AccountsRepo(db);
  const users = new UsersRepo(db);
  const tokens = new TokensRepo(db);
  return {
    accounts,
    users,
    tokens,
    accountCallers: new AccountCallersRepo(db, { tokens, users, accounts }),
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
    // SQLite's FTS5 tables or PostgreSQL's trigram indexes: the same pages (docs/architecture.md).
    contactSearch: isPostgres(db) ? new ContactSearchOnPostgres(db) : new ContactSearch(db),
    contactInboxes: new ContactInboxesRepo(db),
    conversations: new ConversationsRepo(db),
    conversationLists: new ConversationListsRepo(db),
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
    emailChannels: new EmailChannelsRepo(db),
    emailOutbox: new EmailOutboxRepo(db),
    search: new SearchRepo(db),
    dashboardApps: new DashboardAppsRepo(db),
    macros: new MacrosRepo(db),
    passwordResets: new PasswordResetsRepo(db),
    notificationMail: new NotificationMailRepo(db),
    push: new PushRepo(db),
  };
}

// The composition root: builds repos, services, the outbox and the bus around one database.
// No module-level singletons: tests build a fresh Deps on ":memory:" for each case.
import type { Database } from "bun:sqlite";
import type { Config } from "./config.ts";
import { loadConfig } from "./config.ts";
import { AccountsRepo } from "./db/accounts.repo.ts";
import { ContactInboxesRepo } from "./db/contact-inboxes.repo.ts";
import { ContactsRepo } from "./db/contacts.repo.ts";
import { ContactSearch } from "./db/contacts-search.ts";
import { ConversationRefsRepo } from "./db/conversation-refs.repo.ts";
import { ConversationsRepo } from "./db/conversations.repo.ts";
import { IdempotencyRepo } from "./db/idempotency.repo.ts";
import { LabelsRepo } from "./db/labels.repo.ts";
import { MessagesRepo } from "./db/messages.repo.ts";
import { TokensRepo } from "./db/tokens.repo.ts";
import { createWriteTx, type WriteTx } from "./db/tx.ts";
import { UsersRepo } from "./db/users.repo.ts";
import { AccountsService } from "./domain/accounts.service.ts";
import { AuthService } from "./domain/auth.service.ts";
import { ContactsService } from "./domain/contacts.service.ts";
import { ConversationAccess } from "./domain/conversation-access.ts";
import { ConversationEvents } from "./domain/conversation-events.ts";
import { ConversationStateService } from "./domain/conversation-state.service.ts";
import { ConversationViews } from "./domain/conversation-view.ts";
import { ConversationsService } from "./domain/conversations.service.ts";
import { IDEMPOTENCY_TTL_SECONDS, MessagesService } from "./domain/messages.service.ts";
import { EventBus } from "./events/bus.ts";
import { EventOutbox } from "./events/outbox.ts";
import type { Job } from "./jobs/scheduler.ts";
import { systemClock, type Clock } from "./lib/clock.ts";
import { createLogger, type Logger } from "./lib/logger.ts";

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
    contacts: new ContactsRepo(db),
    contactSearch: new ContactSearch(db),
    contactInboxes: new ContactInboxesRepo(db),
    conversations: new ConversationsRepo(db),
    conversationRefs: new ConversationRefsRepo(db),
    messages: new MessagesRepo(db),
    labels: new LabelsRepo(db),
    idempotency: new IdempotencyRepo(db),
  };
}

function createServices(base: Pick<Deps, "writeTx" | "clock" | "outbox" | "logger" | "config">, repos: ReturnType<typeof createRepos>) {
  const { writeTx, clock, outbox } = base;
  const access = new ConversationAccess(repos);
  const views = new ConversationViews(repos);
  const events = new ConversationEvents({ ...repos, views, outbox, clock });
  const contacts = new ContactsService({ ...repos, access, writeTx, clock, outbox });
  const messages = new MessagesService({ ...repos, contactsService: contacts, events, writeTx, clock });
  const conversations = new ConversationsService({ ...repos, access, views, events, contactsService: contacts, messagesService: messages, writeTx, clock });
  const conversationState = new ConversationStateService({ ...repos, conversationsService: conversations, events, writeTx, clock });
  return {
    auth: new AuthService(repos),
    accounts: new AccountsService({ ...repos, writeTx, clock }),
    contacts,
    conversations,
    conversationState,
    messages,
  };
}

export interface DepsOptions {
  db: Database;
  config?: Config;
  clock?: Clock;
  logger?: Logger;
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
  const services = createServices({ writeTx, clock, outbox, logger, config }, repos);
  const jobs: Job[] = [
    // Catches up listeners after a restart, and retries listeners that failed.
    { name: "drain-events", pattern: "* * * * * *", run: () => bus.drain() },
    // A long read can starve auto-checkpoints; a passive checkpoint never blocks writers.
    { name: "wal-checkpoint", pattern: "0 * * * * *", run: () => void db.exec("PRAGMA wal_checkpoint(PASSIVE)") },
    // DESIGN.md §9 #14: snoozed conversations open when snoozed_until passes.
    { name: "reopen-snoozed", pattern: "*/10 * * * * *", run: () => void services.conversationState.reopenDue() },
    { name: "prune-idempotency-keys", pattern: "0 17 * * * *", run: () => void repos.idempotency.prune(Math.floor(clock.nowMs() / 1000) - IDEMPOTENCY_TTL_SECONDS) },
  ];
  return { config, db, clock, logger, writeTx, outbox, bus, repos, services, jobs };
}

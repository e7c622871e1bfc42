// Assembles the realtime parts around the repos (called from deps.ts).
import type { AccountsRepo } from "../db/accounts.repo.ts";
import type { AgentBotsRepo } from "../db/agent-bots.repo.ts";
import type { ContactsRepo } from "../db/contacts.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import type { EventsRepo } from "../db/events.repo.ts";
import type { MessagesRepo } from "../db/messages.repo.ts";
import type { RealtimeRepo } from "../db/realtime.repo.ts";
import type { UsersRepo } from "../db/users.repo.ts";
import type { AuthService } from "../domain/auth.service.ts";
import type { Clock } from "../lib/clock.ts";
import type { FileLinks } from "../files/links.ts";
import type { Logger } from "../lib/logger.ts";
import { EventFeed } from "./feed.ts";
import { RealtimeHub } from "./hub.ts";
import { CableIdentity } from "./identify.ts";
import { Presence } from "./presence.ts";
import { EventRenderer } from "./render.ts";

export interface RealtimeParts {
  repos: {
    events: EventsRepo;
    realtime: RealtimeRepo;
    accounts: AccountsRepo;
    messages: MessagesRepo;
    contacts: ContactsRepo;
    conversationRefs: ConversationRefsRepo;
    agentBots: AgentBotsRepo;
    users: UsersRepo;
  };
  auth: AuthService;
  /** config.replayMaxEvents */
  maxReplay: number;
  clock: Clock;
  logger: Logger;
  links: FileLinks;
}

export function createRealtime(p: RealtimeParts): RealtimeHub {
  const { repos } = p;
  const presence = new Presence();
  const renderer = new EventRenderer({
    ...repos,
    links: p.links,
    isOnline: (accountId, userId) => presence.isOnline(accountId, userId),
  });
  const feed = new EventFeed({ events: repos.events, realtime: repos.realtime, renderer, maxReplay: p.maxReplay });
  const identity = new CableIdentity({
    auth: p.auth,
    realtime: repos.realtime,
    accounts: repos.accounts,
    users: repos.users,
  });
  return new RealtimeHub({
    events: repos.events,
    realtime: repos.realtime,
    identity,
    renderer,
    feed,
    presence,
    clock: p.clock,
    logger: p.logger,
  });
}

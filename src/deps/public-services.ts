// The services behind what customers reach without an agent's token: the public client API
// (/public/api/v1, the Chatwoot API inbox's contacts, conversations and messages) and the website
// chat (/widget, /api/v1/widget), with the per-visitor limits they share. Wired apart from the
// agents' services (services.ts), on top of the core services they call.
import type { AttachmentsService } from "../domain/attachments.service.ts";
import type { ContactsService } from "../domain/contacts.service.ts";
import type { ConversationEvents } from "../domain/conversation-events.ts";
import type { ConversationStateService } from "../domain/conversation-state.service.ts";
import type { ConversationsService } from "../domain/conversations.service.ts";
import type { CsatService } from "../domain/csat.service.ts";
import type { MessageUpdatesService } from "../domain/message-updates.service.ts";
import type { MessagesService } from "../domain/messages.service.ts";
import { PublicContactsService } from "../domain/public-contacts.service.ts";
import { PublicConversationsService } from "../domain/public-conversations.service.ts";
import { PublicLimits } from "../domain/public-limits.ts";
import { PublicMessagesService } from "../domain/public-messages.service.ts";
import { WidgetConversationsService } from "../domain/widget-conversations.service.ts";
import { WidgetService } from "../domain/widget.service.ts";
import type { createRepos } from "./repos.ts";
import type { ServiceBase } from "./services.ts";

/** The core services the public ones call. */
export interface CoreServices {
  attachments: AttachmentsService;
  messages: MessagesService;
  messageUpdates: MessageUpdatesService;
  conversations: ConversationsService;
  conversationState: ConversationStateService;
  contacts: ContactsService;
  csat: CsatService;
  events: ConversationEvents;
}

export function createPublicServices(base: ServiceBase, repos: ReturnType<typeof createRepos>, core: CoreServices) {
  const { writeTx, clock, outbox } = base;
  const limits = new PublicLimits(base.config.publicLimits, clock);
  const publicMessages = new PublicMessagesService({
    ...repos,
    messagesService: core.messages,
    messageUpdates: core.messageUpdates,
    csat: core.csat,
    limits,
    writeTx,
    clock,
  });
  const publicConversations = new PublicConversationsService({
    ...repos,
    conversationsService: core.conversations,
    conversationState: core.conversationState,
    messageUpdates: core.messageUpdates,
    publicMessages,
    events: core.events,
    limits,
    writeTx,
    clock,
  });
  const publicContacts = new PublicContactsService({
    ...repos,
    contactsService: core.contacts,
    limits,
    writeTx,
    clock,
  });
  return {
    publicLimits: limits,
    publicContacts,
    publicConversations,
    publicMessages,
    widget: new WidgetService({ ...repos, contactsService: core.contacts, publicContacts, writeTx, clock }),
    widgetConversations: new WidgetConversationsService({
      ...repos,
      contactsService: core.contacts,
      conversationsService: core.conversations,
      publicConversations,
      publicMessages,
      attachments: core.attachments,
      events: core.events,
      outbox,
      writeTx,
    }),
  };
}

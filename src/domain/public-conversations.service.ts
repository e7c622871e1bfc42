// Conversations through the public API, each reached only by its own contact: a verified identity
// (hmac_verified) sees all the contact's conversations, any other identity only the conversations
// opened through it (Chatwoot). Another contact's conversation is 401
// (docs/compatibility.md #15), an unknown one 404. Writes go through the account API's services with the
// contact as the actor.
import type { ContactsRepo } from "../db/contacts.repo.ts";
import type { ConversationRow, ConversationsRepo } from "../db/conversations.repo.ts";
import type { PublicRepo } from "../db/public.repo.ts";
import { chain, nested, type Reads, readNow, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { parseId } from "./auth.service.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import type { ConversationStateService } from "./conversation-state.service.ts";
import type { ConversationsService, CreateConversationInput } from "./conversations.service.ts";
import { NotFoundError, UnauthorizedError } from "./errors.ts";
import type { MessageUpdatesService } from "./message-updates.service.ts";
import type { PublicScope } from "./public-contacts.service.ts";
import type { PublicLimits } from "./public-limits.ts";
import { PUBLIC_PAGE_SIZE, type PublicMessages, type PublicMessagesService } from "./public-messages.service.ts";

/** A contact's conversation list: the newest 20 by activity. */
export const PUBLIC_CONVERSATIONS_LIMIT = 20;

export interface PublicConversationsDeps {
  publicRepo: PublicRepo;
  conversations: ConversationsRepo;
  contacts: ContactsRepo;
  conversationsService: ConversationsService;
  conversationState: ConversationStateService;
  messageUpdates: MessageUpdatesService;
  publicMessages: PublicMessagesService;
  events: ConversationEvents;
  limits: PublicLimits;
  writeTx: WriteTx;
  clock: Clock;
}

/** A conversation with what its public record shows: the contact and the newest visible messages. */
export interface PublicConversation extends PublicMessages {
  row: ConversationRow;
  contact: PublicScope["contact"];
}

/** The row, if this contact identity may reach it: 404 unknown, 401 another contact's. */
function reachable(scope: PublicScope, row: ConversationRow | null, rawDisplayId: unknown): ConversationRow {
  if (!row) throw new NotFoundError("Conversation", "conversation_id", `no conversation ${String(rawDisplayId)}`);
  const mine =
    scope.contactInbox.hmac_verified === 1
      ? row.contact_id === scope.contact.id
      : row.contact_inbox_id === scope.contactInbox.id;
  if (!mine) throw new UnauthorizedError("This conversation does not belong to this contact", "conversation_id");
  return row;
}

export class PublicConversationsService {
  constructor(private readonly d: PublicConversationsDeps) {}

  /** The conversation with this display id, if this contact identity may reach it. */
  get(scope: PublicScope, rawDisplayId: unknown): ConversationRow {
    const displayId = parseId(rawDisplayId);
    const row = displayId === null ? null : this.d.conversations.byDisplayId(scope.account.id, displayId);
    return reachable(scope, row, rawDisplayId);
  }

  /** get() for a message create, whose body reads the row again: awaited on PostgreSQL's read pool. */
  getSoon(scope: PublicScope, rawDisplayId: unknown): ConversationRow | Promise<ConversationRow> {
    return this.d.publicRepo.pooled ? readSoon(this.readGet(scope, rawDisplayId)) : this.get(scope, rawDisplayId);
  }

  *readGet(scope: PublicScope, rawDisplayId: unknown): Reads<ConversationRow> {
    const displayId = parseId(rawDisplayId);
    const row =
      displayId === null ? null : yield* nested(this.d.conversations.readByDisplayId(scope.account.id, displayId));
    return reachable(scope, row, rawDisplayId);
  }

  /** The contact's conversations: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite. */
  listSoon(scope: PublicScope): PublicConversation[] | Promise<PublicConversation[]> {
    if (!this.d.publicRepo.pooled) return readNow(this.readList(scope)).map((row) => this.view(scope, row));
    return readSoon(this.viewsOf(scope));
  }

  private readList(scope: PublicScope): Reads<ConversationRow[]> {
    const of =
      scope.contactInbox.hmac_verified === 1
        ? { contactId: scope.contact.id }
        : { contactInboxId: scope.contactInbox.id };
    return this.d.publicRepo.readConversationsOf(of, PUBLIC_CONVERSATIONS_LIMIT);
  }

  private *viewsOf(scope: PublicScope): Reads<PublicConversation[]> {
    const rows = yield* nested(this.readList(scope));
    const views: PublicConversation[] = [];
    for (const row of rows) views.push(yield* nested(this.readView(scope, row)));
    return views;
  }

  /** One conversation by its display id, with what its record shows: awaited on PostgreSQL. */
  showSoon(scope: PublicScope, rawDisplayId: unknown): PublicConversation | Promise<PublicConversation> {
    if (!this.d.publicRepo.pooled) return this.view(scope, this.get(scope, rawDisplayId));
    return readSoon(chain(this.readGet(scope, rawDisplayId), (row) => this.readView(scope, row)));
  }

  /** view() on committed rows, after an awaited write: PostgreSQL's read pool, in place on SQLite. */
  viewSoon(scope: PublicScope, row: ConversationRow): PublicConversation | Promise<PublicConversation> {
    return this.d.publicRepo.pooled ? readSoon(this.readView(scope, row)) : this.view(scope, row);
  }

  view(scope: PublicScope, row: ConversationRow): PublicConversation {
    const messages = this.d.publicRepo.latestVisible(row.id, PUBLIC_PAGE_SIZE);
    const contact = this.d.contacts.byId(scope.account.id, row.contact_id) ?? scope.contact;
    return { row, contact, messages, senders: this.d.publicMessages.senders(scope.account.id, messages) };
  }

  /** view() as a Reads, for PostgreSQL (the in-place form above is SQLite's: see batch.ts on why both). */
  private *readView(scope: PublicScope, row: ConversationRow): Reads<PublicConversation> {
    const messages = yield* nested(this.d.publicRepo.readVisible(row.id, null, PUBLIC_PAGE_SIZE));
    const contact = (yield* nested(this.d.contacts.readById(scope.account.id, row.contact_id))) ?? scope.contact;
    const senders = yield* nested(this.d.publicMessages.readSenders(scope.account.id, messages));
    return { row, contact, messages, senders };
  }

  /** A message page of a conversation in the path: awaited on PostgreSQL, in place on SQLite. */
  messagesSoon(scope: PublicScope, rawDisplayId: unknown, q: { before?: unknown }) {
    if (!this.d.publicRepo.pooled) {
      const row = this.get(scope, rawDisplayId);
      return { row, page: this.d.publicMessages.list(row, q) };
    }
    const get = () => this.readGet(scope, rawDisplayId);
    const page = (row: ConversationRow) => this.d.publicMessages.readList(row, q);
    return readSoon(
      (function* () {
        const row = yield* nested(get());
        return { row, page: yield* nested(page(row)) };
      })(),
    );
  }

  /** A new conversation in this inbox for this identity (with lock_to_single_conversation, the last one). */
  async create(scope: PublicScope, input: { custom_attributes?: unknown }): Promise<ConversationRow> {
    this.d.limits.conversation(scope.contact.id);
    return await this.d.conversationsService.create(scope.acting, this.creation(scope, input));
  }

  /** create() as steps of the caller's awaited body (the widget's message opens the conversation). */
  *createSteps(scope: PublicScope, input: { custom_attributes?: unknown }): Reads<ConversationRow> {
    this.d.limits.conversation(scope.contact.id);
    return yield* this.d.conversationsService.createSteps(scope.acting, this.creation(scope, input));
  }

  private creation(scope: PublicScope, input: { custom_attributes?: unknown }): CreateConversationInput {
    return {
      inbox_id: scope.inbox.id,
      contact_id: scope.contact.id,
      source_id: scope.contactInbox.source_id,
      custom_attributes: input.custom_attributes,
    };
  }

  /** The contact can only resolve; resolving a resolved conversation changes nothing. */
  async resolve(scope: PublicScope, row: ConversationRow): Promise<ConversationRow> {
    if (row.status === "resolved") return row;
    return await this.d.conversationState.setStatus(scope.acting, row, "resolved");
  }

  /**
   * The contact has read the conversation: contact_last_seen_at moves to now (silently, as
   * Chatwoot's), and the public outgoing and template messages sent since it last looked become
   * read, each with its message_updated.
   */
  async markSeen(scope: PublicScope, row: ConversationRow): Promise<void> {
    await this.d.writeTx.steps(() => this.markSeenSteps(scope, row));
  }

  private *markSeenSteps(scope: PublicScope, row: ConversationRow): Reads<void> {
    const now = unixSeconds(this.d.clock);
    const current = (yield* this.d.conversations.readById(row.id)) ?? row;
    const seen = { ...current, contact_last_seen_at: now };
    yield* this.d.conversations.saveSteps(seen);
    const unread = yield* this.d.publicRepo.readUnreadByContact(row.id, current.contact_last_seen_at ?? 0, now);
    yield* this.d.messageUpdates.markReadSteps(scope.acting, seen, unread);
  }
}

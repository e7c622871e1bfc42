// Conversations: show (the list and its filters: conversation-lists.ts), update, labels, custom
// attributes, last-seen marks; create (conversation-create.ts) and who may be assigned
// (conversation-assignment.ts) sit beside it. State changes live in conversation-state.service.ts.
import { ConversationLists, type ListQuery } from "./conversation-lists.ts";
import { ConversationAssignment } from "./conversation-assignment.ts";
import { ConversationCreation, type CreateConversationInput } from "./conversation-create.ts";
import { ConversationDetails } from "./conversation-details.ts";
import type { ContactFinder } from "../db/contacts-search.ts";
import type { AgentBotsRepo } from "../db/agent-bots.repo.ts";
import type { CustomAttributeValues } from "./custom-attribute-values.ts";
import type { ContactsRepo } from "../db/contacts.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import type { ConversationCounts, ConversationListsRepo } from "../db/conversation-lists.repo.ts";
import type { ConversationRow, ConversationsRepo } from "../db/conversations.repo.ts";
import type { LabelsRepo } from "../db/labels.repo.ts";
import type { MessageRow, MessagesRepo } from "../db/messages.repo.ts";
import { chain, known, nested, type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import type { ContactReads, ContactWithInboxes } from "./contact-reads.ts";
import type { ContactsService } from "./contacts.service.ts";
import type { ConversationAccess } from "./conversation-access.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import type { ConversationView, ConversationViews } from "./conversation-view.ts";
import type { MessagesService } from "./messages.service.ts";
import type { MessageUpdatesService } from "./message-updates.service.ts";

export interface ConversationsDeps {
  conversations: ConversationsRepo;
  conversationLists: ConversationListsRepo;
  messages: MessagesRepo;
  contacts: ContactsRepo;
  conversationRefs: ConversationRefsRepo;
  labels: LabelsRepo;
  access: ConversationAccess;
  views: ConversationViews;
  events: ConversationEvents;
  contactsService: ContactsService;
  contactReads: ContactReads;
  messagesService: MessagesService;
  messageUpdates: MessageUpdatesService;
  attributeValues: CustomAttributeValues;
  agentBots: AgentBotsRepo;
  contactSearch: ContactFinder;
  writeTx: WriteTx;
  clock: Clock;
}

export { CONVERSATIONS_PER_PAGE, type ListQuery } from "./conversation-lists.ts";
export type { CreateConversationInput } from "./conversation-create.ts";

/** A message page and what the message list shows with it. */
export interface MessageList {
  row: ConversationRow;
  page: MessageRow[];
  view: ConversationView;
  contact: ContactWithInboxes;
}

export class ConversationsService {
  private readonly lists: ConversationLists;
  private readonly creation: ConversationCreation;
  private readonly details: ConversationDetails;

  constructor(private readonly d: ConversationsDeps) {
    this.lists = new ConversationLists(d);
    this.creation = new ConversationCreation(d, new ConversationAssignment(d));
    this.details = new ConversationDetails(d);
  }

  list(a: Acting, q: ListQuery): Promise<{ counts: ConversationCounts; rows: ConversationRow[] }> {
    return this.lists.list(a, q);
  }

  counts(a: Acting, q: ListQuery): Promise<ConversationCounts> {
    return this.lists.counts(a, q);
  }

  /** A contact's conversations the caller may see, newest activity first, at most 20 (Chatwoot). */
  ofContact(a: Acting, contactId: number): Promise<ConversationRow[]> {
    return this.lists.ofContact(a, contactId);
  }

  get(a: Acting, rawDisplayId: unknown): ConversationRow {
    return this.d.access.conversation(a, rawDisplayId);
  }

  /**
   * For a write whose body reads the conversation again in its own transaction (a message create):
   * committed rows are enough, awaited on PostgreSQL's read pool. SQLite reads in place (through
   * readSoon it measured ~10 % more CPU a message create, in process).
   */
  getSoon(a: Acting, rawDisplayId: unknown): ConversationRow | Promise<ConversationRow> {
    return this.d.conversations.pooled ? this.readAbout(a, rawDisplayId, known) : this.get(a, rawDisplayId);
  }

  /** The API object's data for conversations the caller sees. */
  views(a: Acting, rows: ConversationRow[]): ConversationView[] {
    return this.d.views.many(rows, { account: a.account, viewerId: a.user?.id ?? null, api: true });
  }

  /**
   * The same for a page of a list or filter whose rows were just selected in this request: their
   * trigger-kept labels, unread count and newest message stand in for three lookups per row.
   * Read-only endpoints': awaited on PostgreSQL (src/db/reads.ts readSoon).
   */
  listViews(a: Acting, rows: ConversationRow[]): ConversationView[] | Promise<ConversationView[]> {
    return readSoon(
      this.d.views.readMany(rows, { account: a.account, viewerId: a.user?.id ?? null, api: true, fresh: true }),
    );
  }

  view(a: Acting, row: ConversationRow): ConversationView {
    return this.views(a, [row])[0]!;
  }

  /**
   * A read-only endpoint's answer about the conversation in the path: its row through the caller's
   * access (404/403, as get()) and what `then` reads of it, in one Reads: awaited on PostgreSQL
   * (src/db/reads.ts readSoon).
   */
  readAbout<T>(a: Acting, rawDisplayId: unknown, then: (row: ConversationRow) => Reads<T>): T | Promise<T> {
    return readSoon(chain(this.d.access.readConversation(a, rawDisplayId), then));
  }

  /** The API object's data for one conversation, as view() builds it. */
  readView(a: Acting, row: ConversationRow): Reads<ConversationView> {
    return this.d.views.readOne(row, { account: a.account, viewerId: a.user?.id ?? null, api: true });
  }

  *readLabels(row: ConversationRow): Reads<string[]> {
    return (yield* nested(this.d.labels.readOf("conversation", [row.id]))).get(row.id) ?? [];
  }

  /**
   * A message page with what it shows besides: the conversation (by the path's display id, or
   * 404/403), its meta, every sender on the page and the contact's inboxes, in one Reads: awaited
   * on PostgreSQL (src/db/reads.ts readSoon).
   */
  messageList(
    a: Acting,
    rawDisplayId: unknown,
    pageOf: (row: ConversationRow) => Reads<MessageRow[]>,
  ): MessageList | Promise<MessageList> {
    const { views, contactReads, access } = this.d;
    return readSoon(
      (function* () {
        const row = yield* nested(access.readConversation(a, rawDisplayId));
        const page = yield* nested(pageOf(row));
        // The row was read in this request, with nothing written since: its kept columns are current.
        const brief = yield* nested(
          views.readOne(row, {
            account: a.account,
            viewerId: a.user?.id ?? null,
            api: false,
            fresh: true,
            brief: true,
          }),
        );
        const view = yield* nested(views.readWithSenders(brief, page));
        const [contact] = yield* nested(contactReads.readWithInboxes([view.contact], [view.inbox]));
        return { row, page, view, contact: contact! };
      })(),
    );
  }

  /** Chatwoot's conversation create (src/domain/conversation-create.ts). */
  create(a: Acting, input: CreateConversationInput): Promise<ConversationRow> {
    return this.creation.create(a, input);
  }

  /** create() in place, for a caller inside another writeTx body (the widget's first message, mail intake). */
  createNow(a: Acting, input: CreateConversationInput): ConversationRow {
    return this.creation.createNow(a, input);
  }

  /** create() as steps of the caller's awaited body. */
  *createSteps(a: Acting, input: CreateConversationInput): Reads<ConversationRow> {
    return yield* this.creation.createSteps(a, input);
  }

  /** PATCH: priority via the state service; attribute objects are merged (conversation-details.ts). */
  updateAttributes(
    a: Acting,
    row: ConversationRow,
    input: { additional_attributes?: unknown; custom_attributes?: unknown },
  ): Promise<ConversationRow> {
    return this.details.updateAttributes(a, row, input);
  }

  /** POST custom_attributes: replaces the whole object (Chatwoot). */
  setCustomAttributes(a: Acting, row: ConversationRow, raw: unknown): Promise<ConversationRow> {
    return this.details.setCustomAttributes(a, row, raw);
  }

  labels(row: ConversationRow): string[] {
    return this.d.labels.titles("conversation", row.id);
  }

  /** Replaces the labels; activity messages name what was added and removed. */
  setLabels(a: Acting, row: ConversationRow, raw: unknown): Promise<string[]> {
    return this.details.setLabels(a, row, raw);
  }

  /** setLabels() as steps, inside the caller's body (automation actions). */
  *setLabelsSteps(a: Acting, row: ConversationRow, raw: unknown): Reads<string[]> {
    return yield* this.details.setLabelsSteps(a, row, raw);
  }

  /** The agent has read the conversation (conversation-details.ts). */
  markSeen(a: Acting, row: ConversationRow): Promise<ConversationRow> {
    return this.details.markSeen(a, row);
  }

  /** Marks the last incoming message unread. */
  markUnread(a: Acting, row: ConversationRow): Promise<ConversationRow> {
    return this.details.markUnread(a, row);
  }
}

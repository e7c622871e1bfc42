// Conversations: show (the list and its filters: conversation-lists.ts), update, labels, custom
// attributes, last-seen marks; create (conversation-create.ts) and who may be assigned
// (conversation-assignment.ts) sit beside it. State changes live in conversation-state.service.ts.
import { ConversationLists, type ListQuery } from "./conversation-lists.ts";
import { ConversationAssignment } from "./conversation-assignment.ts";
import { ConversationCreation, type CreateConversationInput } from "./conversation-create.ts";
import type { ContactFinder } from "../db/contacts-search.ts";
import type { AgentBotsRepo } from "../db/agent-bots.repo.ts";
import type { CustomAttributeValues } from "./custom-attribute-values.ts";
import type { ContactsRepo } from "../db/contacts.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import type { ConversationCounts, ConversationListsRepo } from "../db/conversation-lists.repo.ts";
import type { ConversationRow, ConversationsRepo } from "../db/conversations.repo.ts";
import type { LabelsRepo } from "../db/labels.repo.ts";
import type { MessageRow, MessagesRepo } from "../db/messages.repo.ts";
import { chain, known, nested, type Reads, readNow, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import { labelActivity } from "./activity-messages.ts";
import { labelTitles } from "./contact-input.ts";
import type { ContactReads, ContactWithInboxes } from "./contact-reads.ts";
import type { ContactsService } from "./contacts.service.ts";
import type { ConversationAccess } from "./conversation-access.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import { objectValue } from "./conversation-input.ts";
import type { ConversationView, ConversationViews } from "./conversation-view.ts";
import { ValidationError } from "./errors.ts";
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

  constructor(private readonly d: ConversationsDeps) {
    this.lists = new ConversationLists(d);
    this.creation = new ConversationCreation(d, new ConversationAssignment(d));
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

  /** PATCH: priority via the state service; attribute objects are merged. */
  async updateAttributes(
    a: Acting,
    row: ConversationRow,
    input: { additional_attributes?: unknown; custom_attributes?: unknown },
  ): Promise<ConversationRow> {
    const additional = objectValue("additional_attributes", input.additional_attributes);
    const custom = objectValue("custom_attributes", input.custom_attributes);
    if (!additional && !custom) return row;
    this.d.attributeValues.check(a.account.id, "conversation_attribute", custom);
    return await this.d.writeTx(() => {
      const after: ConversationRow = {
        ...row,
        additional_attributes: additional
          ? JSON.stringify({ ...JSON.parse(row.additional_attributes), ...additional })
          : row.additional_attributes,
        custom_attributes: custom
          ? JSON.stringify({ ...JSON.parse(row.custom_attributes), ...custom })
          : row.custom_attributes,
        updated_at_ms: this.d.clock.nowMs(),
      };
      return this.save(a, row, after);
    });
  }

  /** POST custom_attributes: replaces the whole object (Chatwoot). */
  async setCustomAttributes(a: Acting, row: ConversationRow, raw: unknown): Promise<ConversationRow> {
    const custom = objectValue("custom_attributes", raw);
    if (!custom) throw ValidationError.of("custom_attributes", "can't be blank", "required");
    this.d.attributeValues.check(a.account.id, "conversation_attribute", custom);
    return await this.d.writeTx(() =>
      this.save(a, row, { ...row, custom_attributes: JSON.stringify(custom), updated_at_ms: this.d.clock.nowMs() }),
    );
  }

  labels(row: ConversationRow): string[] {
    return this.d.labels.titles("conversation", row.id);
  }

  /** Replaces the labels; activity messages name what was added and removed. */
  async setLabels(a: Acting, row: ConversationRow, raw: unknown): Promise<string[]> {
    const titles = labelTitles("labels", raw);
    return await this.d.writeTx.steps(() => this.labelsSteps(a, row, titles));
  }

  /** setLabels() in place: automation actions run inside a macro's writeTx body, which cannot await. */
  setLabelsNow(a: Acting, row: ConversationRow, raw: unknown): string[] {
    const titles = labelTitles("labels", raw);
    return this.d.writeTx.now(() => readNow(this.labelsSteps(a, row, titles)));
  }

  /** The labels' write, as steps of the transaction (src/db/reads.ts). */
  private *labelsSteps(a: Acting, loaded: ConversationRow, titles: string[]): Reads<string[]> {
    const row = yield* this.d.events.readCurrent(loaded);
    const labels = this.d.labels;
    const before = yield* labels.readTitles("conversation", row.id);
    const { added, removed } = yield* labels.replaceSteps("conversation", row.id, a.account.id, titles);
    if (added.length === 0 && removed.length === 0) return before;
    const after = { ...row, updated_at_ms: this.d.clock.nowMs() };
    yield* this.d.conversations.saveSteps(after);
    const now = yield* labels.readTitles("conversation", row.id);
    yield* this.d.events.changedSteps(a, row, after, { before, after: now });
    const current = yield* this.d.events.activitySteps(a, after, labelActivity(a, "added", added));
    yield* this.d.events.activitySteps(a, current, labelActivity(a, "removed", removed));
    return now;
  }

  /**
   * The agent has read the conversation: the last-seen columns move (silently, as Chatwoot's), and
   * the contact's messages not read yet become read, each with its message_updated (Chatwoot's
   * UpdateMessageStatusJob), so the website chat shows the visitor "Read".
   */
  async markSeen(a: Acting, row: ConversationRow): Promise<ConversationRow> {
    return await this.d.writeTx.steps(() => this.markSeenSteps(a, row));
  }

  private *markSeenSteps(a: Acting, loaded: ConversationRow): Reads<ConversationRow> {
    // The whole row is saved: as of this transaction, so a change made since the load stays.
    const row = yield* this.d.events.readCurrent(loaded);
    const now = unixSeconds(this.d.clock);
    const isAssignee = a.user !== null && row.assignee_id === a.user.id;
    const after = {
      ...row,
      agent_last_seen_at: now,
      assignee_last_seen_at: isAssignee ? now : row.assignee_last_seen_at,
    };
    yield* this.d.conversations.saveSteps(after);
    const unread = yield* this.d.messages.readIncomingUnread(row.id, row.agent_last_seen_at ?? 0, now);
    yield* this.d.messageUpdates.markReadSteps(a, after, unread);
    return after;
  }

  /** Marks the last incoming message unread: last seen goes to one second before it (Chatwoot). */
  async markUnread(a: Acting, row: ConversationRow): Promise<ConversationRow> {
    const lastIncomingAt = this.d.messages.lastIncomingAt(row.id);
    const seen = lastIncomingAt === null ? null : lastIncomingAt - 1;
    const isAssignee = a.user !== null && row.assignee_id === a.user.id;
    const after = {
      ...row,
      agent_last_seen_at: seen,
      assignee_last_seen_at: isAssignee ? seen : row.assignee_last_seen_at,
    };
    await this.d.writeTx(() => this.d.conversations.save(after));
    return after;
  }

  /** Saves a change and records its events; inside writeTx. */
  save(a: Acting, before: ConversationRow, after: ConversationRow): ConversationRow {
    this.d.conversations.save(after);
    this.d.events.changed(a, before, after);
    return after;
  }
}

// The website visitor's conversation, as Chatwoot's widget has it: one current conversation per
// visitor identity (the newest opened through it), opened by the first message, with the
// visitor's contact details from the pre-chat form, conversation custom attributes and labels
// the site sets through the SDK. Every write goes through the public API's and the account API's
// services with the visitor as the actor.
import type { AttachmentsService, PreparedFile } from "./attachments.service.ts";
import type { AccountLabelsRepo } from "../db/account-labels.repo.ts";
import type { ConversationRow } from "../db/conversations.repo.ts";
import type { MessageRow } from "../db/messages.repo.ts";
import type { PublicRepo } from "../db/public.repo.ts";
import type { WidgetRepo } from "../db/widget.repo.ts";
import { nested, type Reads, readNow, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { EventOutbox } from "../events/outbox.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import { contactWebhookData } from "./presenters/contact.presenter.ts";
import { conversationPushData } from "./presenters/conversation.presenter.ts";
import { labelTitles } from "./contact-input.ts";
import type { ContactsService } from "./contacts.service.ts";
import type { ConversationsService } from "./conversations.service.ts";
import { NotFoundError, ValidationError } from "./errors.ts";
import type { PublicScope } from "./public-contacts.service.ts";
import { type ListedPage, readVisitorList } from "./widget-conversation-list.ts";
import type { PublicConversationsService } from "./public-conversations.service.ts";
import type { PublicMessages, PublicMessagesService } from "./public-messages.service.ts";

export interface WidgetConversationsDeps {
  publicRepo: PublicRepo;
  widgetRepo: WidgetRepo;
  accountLabels: AccountLabelsRepo;
  contactsService: ContactsService;
  conversationsService: ConversationsService;
  publicConversations: PublicConversationsService;
  publicMessages: PublicMessagesService;
  attachments: AttachmentsService;
  events: ConversationEvents;
  outbox: EventOutbox;
  writeTx: WriteTx;
}

export interface WidgetMessageInput {
  content?: unknown;
  echo_id?: unknown;
  /** A message of the conversation this one quotes (resolved as Chatwoot does: in-reply-to.ts). */
  reply_to?: unknown;
}

export interface StartInput {
  contact?: { name?: unknown; email?: unknown; phone_number?: unknown; custom_attributes?: unknown } | undefined;
  message?: WidgetMessageInput | undefined;
  custom_attributes?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The visitor's two forms (src/http/widget-scope.ts): in place, and as a step of a Reads. */
export interface Visitor {
  now(): PublicScope;
  reads(): Reads<PublicScope>;
}

/** What a read-only route reads of the current conversation, in both forms. */
interface CurrentThen<T> {
  now(row: ConversationRow | null): T;
  reads(row: ConversationRow | null): Reads<T>;
}

/** The current conversation, or 404 before the first message. */
function orNotFound(row: ConversationRow | null): ConversationRow {
  if (!row) throw new NotFoundError("Conversation", "conversation", "this visitor has no conversation yet");
  return row;
}

/** A Reads that reads nothing more: its value is the one given. */
// biome-ignore lint/correctness/useYield: a Reads of no statement, for a step that needs none
function* nothingMore<T>(value: T): Reads<T> {
  return value;
}

export class WidgetConversationsService {
  constructor(private readonly d: WidgetConversationsDeps) {}

  /** The visitor's current conversation, or null before the first message. */
  current(scope: PublicScope): ConversationRow | null {
    return this.d.publicRepo.conversationsOfContactInbox(scope.contactInbox.id, 1)[0] ?? null;
  }

  /**
   * current() for a read-only route, with what `then` reads of it: the visitor, the conversation
   * and the rest in one Reads, awaited on PostgreSQL; on SQLite the in-place forms (quicker there).
   */
  currentSoon<T>(visitor: Visitor, then: CurrentThen<T>): T | Promise<T> {
    if (!this.d.publicRepo.pooled) return then.now(this.current(visitor.now()));
    const { publicRepo } = this.d;
    return readSoon(
      (function* () {
        const scope = yield* nested(visitor.reads());
        const of = { contactInboxId: scope.contactInbox.id };
        return yield* nested(then.reads((yield* nested(publicRepo.readConversationsOf(of, 1)))[0] ?? null));
      })(),
    );
  }

  /** GET /conversations: the current conversation alone. */
  currentRowSoon(visitor: Visitor): ConversationRow | null | Promise<ConversationRow | null> {
    return this.currentSoon(visitor, { now: (row) => row, reads: (row) => nothingMore(row) });
  }

  /** GET /messages: the current conversation and a page of its messages (null before the first). */
  messagesSoon(visitor: Visitor, q: { before?: unknown }) {
    const { publicMessages } = this.d;
    return this.currentSoon(visitor, {
      now: (row) => (row ? { row, page: publicMessages.list(row, q) } : null),
      reads: function* (row) {
        return row ? { row, page: yield* nested(publicMessages.readList(row, q)) } : null;
      },
    });
  }

  /**
   * The visitor's conversations (GET /conversations/list), newest activity first, with unread counts
   * and the last visible message: the visitor and the page in one Reads, in place on SQLite and
   * awaited on PostgreSQL (each conversation's reads at once on the read pool).
   */
  listSoon(visitor: Visitor, rawPage: unknown): ListedPage | Promise<ListedPage> {
    if (!this.d.publicRepo.pooled) return readNow(readVisitorList(this.d, visitor.now(), rawPage));
    const { d } = this;
    return readSoon(
      (function* () {
        return yield* nested(readVisitorList(d, yield* nested(visitor.reads()), rawPage));
      })(),
    );
  }

  /**
   * The current conversation; 404 before the first message (Chatwoot's render_not_found_if_empty).
   * On committed rows: awaited on PostgreSQL's read pool, in place on SQLite.
   */
  async requiredLater(scope: PublicScope): Promise<ConversationRow> {
    return orNotFound(await readSoon(this.readCurrent(scope)));
  }

  private *readCurrent(scope: PublicScope): Reads<ConversationRow | null> {
    return (yield* this.d.publicRepo.readConversationsOf({ contactInboxId: scope.contactInbox.id }, 1))[0] ?? null;
  }

  /**
   * POST /api/v1/widget/conversations: the pre-chat form's contact details, a new conversation and
   * its first message, all or nothing.
   */
  async start(scope: PublicScope, input: StartInput): Promise<{ row: ConversationRow; messages: PublicMessages }> {
    if (input.contact !== undefined && !isObject(input.contact))
      throw ValidationError.of("contact", "must be an object", "invalid");
    if (!isObject(input.message))
      throw ValidationError.of("message", "must be an object with the first message's content", "required");
    const { row, message } = await this.d.writeTx.steps(() => this.startSteps(scope, input, input.message!));
    const senders = await this.d.publicMessages.sendersSoon(row.account_id, message);
    return { row, messages: { messages: [message], senders } };
  }

  private *startSteps(
    scope: PublicScope,
    input: StartInput,
    first: WidgetMessageInput,
  ): Reads<{ row: ConversationRow; message: MessageRow }> {
    const contact = input.contact ? yield* this.updateContactSteps(scope, input.contact) : scope;
    const row = yield* this.d.publicConversations.createSteps(contact, { custom_attributes: input.custom_attributes });
    return { row, message: yield* this.d.publicMessages.createSteps(contact, row, first, []) };
  }

  /**
   * POST /api/v1/widget/messages: into the current conversation, opening one when there is none,
   * or when it is resolved and the inbox does not take messages after resolution (Chatwoot's
   * allow_messages_after_resolved: the visitor's next message starts a new conversation).
   */
  async send(
    scope: PublicScope,
    input: WidgetMessageInput,
    files: readonly PreparedFile[] = [],
  ): Promise<{ row: ConversationRow; messages: PublicMessages }> {
    const held = this.d.attachments.holding(files);
    const { row, message } = await this.d.writeTx.steps(() => this.sendSteps(scope, input, files)).finally(held);
    const senders = await this.d.publicMessages.sendersSoon(row.account_id, message);
    return { row, messages: { messages: [message], senders } };
  }

  private *sendSteps(
    scope: PublicScope,
    input: WidgetMessageInput,
    files: readonly PreparedFile[],
  ): Reads<{ row: ConversationRow; message: MessageRow }> {
    // The current conversation as of this transaction: two messages sent at once open one.
    const current = yield* this.readCurrent(scope);
    const closed = current?.status === "resolved" && scope.inbox.allow_messages_after_resolved === 0;
    const row = current && !closed ? current : yield* this.d.publicConversations.createSteps(scope, {});
    return { row, message: yield* this.d.publicMessages.createSteps(scope, row, input, files) };
  }

  /** Merges into the conversation's custom attributes. */
  async setCustomAttributes(scope: PublicScope, raw: unknown): Promise<ConversationRow> {
    const row = await this.requiredLater(scope);
    if (!isObject(raw)) throw ValidationError.of("custom_attributes", "must be an object", "invalid");
    const merged = { ...(JSON.parse(row.custom_attributes) as Record<string, unknown>), ...raw };
    return await this.d.conversationsService.setCustomAttributes(scope.acting, row, merged);
  }

  async removeCustomAttributes(scope: PublicScope, rawKeys: unknown): Promise<ConversationRow> {
    const row = await this.requiredLater(scope);
    const keys = labelTitles("custom_attributes", rawKeys);
    const attrs = JSON.parse(row.custom_attributes) as Record<string, unknown>;
    for (const k of keys) delete attrs[k];
    return await this.d.conversationsService.setCustomAttributes(scope.acting, row, attrs);
  }

  /** The site labels the conversation; only the account's defined labels (a visitor cannot invent new ones). */
  async addLabel(scope: PublicScope, raw: unknown): Promise<string[]> {
    const row = await this.requiredLater(scope);
    const title = await readSoon(this.readKnownLabel(scope, raw));
    const current = await readSoon(this.d.conversationsService.readLabels(row));
    return current.includes(title)
      ? current
      : await this.d.conversationsService.setLabels(scope.acting, row, [...current, title]);
  }

  async removeLabel(scope: PublicScope, raw: unknown): Promise<string[]> {
    const row = await this.requiredLater(scope);
    const title = typeof raw === "string" ? decodeURIComponent(raw).trim() : "";
    const current = await readSoon(this.d.conversationsService.readLabels(row));
    return current.includes(title)
      ? await this.d.conversationsService.setLabels(
          scope.acting,
          row,
          current.filter((l) => l !== title),
        )
      : current;
  }

  /**
   * POST /api/v1/widget/events: the visitor opened the chat ("webwidget.triggered", the only event
   * Chatwoot's widget sends). Recorded for webhooks as Chatwoot's contact_inbox webhook data.
   */
  async triggered(scope: PublicScope, name: unknown, eventInfo: unknown): Promise<void> {
    if (name !== "webwidget.triggered") throw ValidationError.of("name", "must be webwidget.triggered", "invalid");
    const info = isObject(eventInfo) ? eventInfo : {};
    if (JSON.stringify(info).length > 4096)
      throw ValidationError.of("event_info", "is too long (maximum is 4096 characters as JSON)", "too_long");
    await this.d.writeTx.steps(() => this.triggeredSteps(scope, info));
  }

  private *triggeredSteps(scope: PublicScope, info: Record<string, unknown>): Reads<void> {
    const row = yield* this.readCurrent(scope);
    const view = row ? yield* this.d.events.readView(scope.acting, row) : null;
    yield* this.d.outbox.recordSteps({
      kind: "webwidget_triggered",
      accountId: scope.account.id,
      actor: scope.acting.actor,
      inboxId: scope.inbox.id,
      conversationId: row?.id ?? null,
      contactId: scope.contact.id,
      payload: {
        id: scope.contactInbox.id,
        contact: contactWebhookData(scope.contact, scope.account),
        inbox: { id: scope.inbox.id, name: scope.inbox.name },
        account: { id: scope.account.id, name: scope.account.name },
        current_conversation: view ? conversationPushData(view) : null,
        source_id: scope.contactInbox.source_id,
        event_info: info,
      },
    });
  }

  private *readKnownLabel(scope: PublicScope, raw: unknown): Reads<string> {
    const title = typeof raw === "string" ? raw.trim() : "";
    if (!title) throw ValidationError.of("label", "can't be blank", "required");
    const label = yield* this.d.accountLabels.readByTitle(scope.account.id, title.toLowerCase());
    if (!label) throw ValidationError.of("label", `no label ${title} in this account`, "invalid");
    return label.title;
  }

  private *updateContactSteps(scope: PublicScope, c: NonNullable<StartInput["contact"]>): Reads<PublicScope> {
    const { name, email, phone_number, custom_attributes } = c;
    const contact = yield* this.d.contactsService.updateSteps(scope.acting, scope.contact.id, {
      name,
      email,
      phone_number,
      custom_attributes,
    });
    return { ...scope, contact };
  }
}

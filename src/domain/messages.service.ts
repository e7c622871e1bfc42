// Messages: create (with Chatwoot's side effects on the conversation and contact) and list pages.
// Changes to messages that exist are src/domain/message-updates.service.ts. Every write and its
// events share one writeTx.
import type { ContactsRepo } from "../db/contacts.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import type { ConversationRow, ConversationsRepo } from "../db/conversations.repo.ts";
import type { IdempotencyRepo } from "../db/idempotency.repo.ts";
import { INCOMING, TEMPLATE, type MessageRow, type MessagesRepo } from "../db/messages.repo.ts";
import type { Reads } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import { SYSTEM_REOPENED } from "./activity-messages.ts";
import type { ContactsService } from "./contacts.service.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import type { AttachmentsService, PreparedFile } from "./attachments.service.ts";
import type { ConversationView } from "./conversation-view.ts";
import { isHumanReply } from "./human-reply.ts";
import { ConflictError, RateLimitedError, ValidationError } from "./errors.ts";
import { cleanMessage, type MessageInput } from "./message-input.ts";
import { resolveInReplyToSteps } from "./in-reply-to.ts";
import type { ReportingRecorder } from "./reporting-recorder.ts";

/** Chatwoot's CONVERSATION_MESSAGE_PER_MINUTE_LIMIT: a guard against automation loops and floods. */
export const FLOOD_LIMIT = 200;
export const FLOOD_WINDOW_SECONDS = 60;
/** How long an Idempotency-Key answers with its first result. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

export interface MessagesDeps {
  messages: MessagesRepo;
  conversations: ConversationsRepo;
  contacts: ContactsRepo;
  conversationRefs: ConversationRefsRepo;
  idempotency: IdempotencyRepo;
  contactsService: ContactsService;
  events: ConversationEvents;
  reporting: ReportingRecorder;
  attachmentsService: AttachmentsService;
  writeTx: WriteTx;
  clock: Clock;
}

export interface CreatedMessage {
  message: MessageRow;
  view: ConversationView;
}

export interface MessagePageQuery {
  after?: unknown;
  before?: unknown;
}

export class MessagesService {
  constructor(private readonly d: MessagesDeps) {}

  /**
   * Creates a message in a conversation the caller may already use. With an idempotency key, a
   * retry returns the first result (no second message, no second event).
   */
  async create(
    a: Acting,
    conversation: ConversationRow,
    input: MessageInput,
    idempotencyKey?: string | null,
    files: readonly PreparedFile[] = [],
  ): Promise<CreatedMessage> {
    const key = idempotencyKey?.trim() || null;
    if (key && key.length > 255)
      throw ValidationError.of("Idempotency-Key", "is too long (maximum is 255 characters)", "too_long");
    const held = this.d.attachmentsService.holding(files);
    return await this.d.writeTx.steps(() => this.createSteps(a, conversation, input, key, files)).finally(held);
  }

  private *createSteps(
    a: Acting,
    loaded: ConversationRow,
    input: MessageInput,
    key: string | null,
    files: readonly PreparedFile[],
  ): Reads<CreatedMessage> {
    // On PostgreSQL the body may wait behind others' writes to the same conversation, and what it
    // saves is derived from the row (status, first reply, waiting).
    const conversation = yield* this.d.events.readCurrent(loaded);
    if (key) {
      const prior = yield* this.d.idempotency.readKey(a.account.id, key);
      if (prior && prior.created_at > unixSeconds(this.d.clock) - IDEMPOTENCY_TTL_SECONDS) {
        if (prior.conversation_id !== conversation.id)
          throw new ConflictError("Idempotency-Key was already used for another conversation", [
            { field: "Idempotency-Key", message: "was used for another conversation", code: "taken" },
          ]);
        const message = yield* this.d.messages.readById(conversation.id, prior.message_id);
        if (message) return { message, view: yield* this.d.events.readView(a, conversation) };
      }
    }
    const created = yield* this.createInTxSteps(a, conversation, input, "chat", files);
    if (key) {
      yield* this.d.idempotency.putSteps({
        account_id: a.account.id,
        key,
        conversation_id: conversation.id,
        message_id: created.message.id,
        created_at: created.message.created_at,
      });
    }
    return created;
  }

  /**
   * The write path as steps of the caller's body (src/db/reads.ts): conversation create reuses it
   * for its first message, and so do the website chat's first message, automation's actions and
   * incoming mail. `template`: a message the system sends (the CSAT survey), with no sender.
   */
  *createInTxSteps(
    a: Acting,
    conversation: ConversationRow,
    input: MessageInput,
    kind: "chat" | "template",
    files: readonly PreparedFile[],
  ): Reads<CreatedMessage> {
    const inbox = (yield* this.d.conversationRefs.readInbox(conversation.account_id, conversation.inbox_id))!;
    const m = cleanMessage(input, inbox, a.actor.type === "contact", files.length > 0);
    if (kind === "template") m.messageType = TEMPLATE;
    const now = unixSeconds(this.d.clock);
    yield* this.floodGuardSteps(conversation.id, now);
    const incoming = m.messageType === INCOMING;
    const contact = (yield* this.d.contacts.readById(conversation.account_id, conversation.contact_id))!;
    const attributes = { ...m.contentAttributes };
    if (a.actor.type === "automation" && a.actor.id !== null && attributes.automation_rule_id === undefined)
      attributes.automation_rule_id = a.actor.id;
    yield* resolveInReplyToSteps(attributes, {
      byId: (id) => this.d.messages.readById(conversation.id, id),
      bySource: (sourceId) => this.d.messages.readBySource(conversation.id, sourceId),
    });
    const sender = incoming
      ? { type: "Contact" as const, id: contact.id }
      : kind !== "chat"
        ? null
        : a.user
          ? { type: "User" as const, id: a.user.id }
          : a.actor.type === "agent_bot"
            ? { type: "AgentBot" as const, id: a.actor.id }
            : null;
    const inserted = yield* this.d.messages.insertSteps({
      account_id: conversation.account_id,
      inbox_id: conversation.inbox_id,
      conversation_id: conversation.id,
      message_type: m.messageType,
      content: m.content,
      content_type: m.contentType,
      content_attributes: JSON.stringify(attributes),
      additional_attributes: "{}",
      private: m.private ? 1 : 0,
      source_id: m.sourceId,
      echo_id: m.echoId,
      sender_type: sender?.type ?? null,
      sender_id: sender?.id ?? null,
      created_at: now,
      updated_at: now,
    });
    // Attachments too: create() holds their keys until the body has settled (AttachmentsService.holding).
    const message = files.length > 0 ? yield* this.d.attachmentsService.attachSteps(inserted, files) : inserted;
    let row = conversation;
    // An incoming message reopens a snoozed or resolved conversation (not a muted one).
    if (incoming && contact.blocked === 0 && (row.status === "snoozed" || row.status === "resolved")) {
      const reopened: ConversationRow = {
        ...row,
        status: "open",
        snoozed_until: null,
        updated_at_ms: this.d.clock.nowMs(),
      };
      yield* this.d.conversations.saveSteps(reopened);
      row = yield* this.d.events.statusChangedSteps(a, row, reopened, SYSTEM_REOPENED);
    }
    // Every message moves the conversation's activity, silently (no conversation_updated).
    row = { ...row, last_activity_at: now, updated_at_ms: this.d.clock.nowMs() };
    yield* this.d.conversations.touchSteps(row);
    // The new message is the newest public one unless it is a private note.
    const known = { contact, inbox, ...(message.private === 0 ? { lastChat: message } : {}) };
    let view = yield* this.d.events.readView(a, row, known);
    yield* this.d.events.messageCreatedSteps(a, message, view);
    const next = yield* this.replyBookkeeping(row, message, now);
    if (next) {
      // Issue 8: first_response / reply_time need the conversation before this bookkeeping.
      yield* this.d.reporting.repliedSteps(row, next, message);
      yield* this.d.conversations.saveSteps(next);
      // The view just built differs only in the row: reuse it rather than load every part again.
      view = { ...view, row: next };
      yield* this.d.events.changedSteps(a, row, next, undefined, view);
    }
    if (incoming) yield* this.d.contactsService.touchActivitySteps(a, contact, now);
    return { message, view };
  }

  /** Chatwoot's first-reply and waiting_since rules (§3.10 "Human reply"); null when nothing changes. */
  private *replyBookkeeping(row: ConversationRow, m: MessageRow, now: number): Reads<ConversationRow | null> {
    if (isHumanReply(m)) {
      if (row.first_reply_created_at === null && (yield* this.d.messages.readHumanReplyCount(row.id)) <= 1) {
        return {
          ...row,
          first_reply_created_at: m.created_at,
          waiting_since: null,
          updated_at_ms: this.d.clock.nowMs(),
        };
      }
      if (row.waiting_since !== null) return { ...row, waiting_since: null, updated_at_ms: this.d.clock.nowMs() };
      return null;
    }
    if (m.message_type === INCOMING && row.waiting_since === null)
      return { ...row, waiting_since: now, updated_at_ms: this.d.clock.nowMs() };
    return null;
  }

  private *floodGuardSteps(conversationId: number, now: number): Reads<void> {
    const since = now - FLOOD_WINDOW_SECONDS;
    if ((yield* this.d.messages.readCountSince(conversationId, since)) < FLOOD_LIMIT) return;
    // Retry when the oldest message that keeps the window full leaves it.
    const oldest = (yield* this.d.messages.readNthSince(conversationId, since, FLOOD_LIMIT - 1)) ?? now;
    throw new RateLimitedError(oldest + FLOOD_WINDOW_SECONDS - now, "conversation_id", "Too many messages");
  }

  /** docs/compatibility.md #4: after (≤100), before (≤20), both (range ≤1000, lower bound inclusive), neither (latest 20); all ascending. */
  /** The page a query selects, as a Reads (src/db/reads.ts); a bad bound is a 422 before any read. */
  readPage(conversation: ConversationRow, q: MessagePageQuery): Reads<MessageRow[]> {
    const after = pageBound("after", q.after);
    const before = pageBound("before", q.before);
    const m = this.d.messages;
    const c = conversation.id;
    if (after !== null && before !== null) return m.readRange(c, after, before, 1000);
    if (after !== null) return m.readAfter(c, after, 100);
    if (before !== null) return m.readBefore(c, before, 20);
    return m.readLatest(c, 20);
  }
}

function pageBound(field: string, raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === "") return null;
  const s = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (!/^\d{1,15}$/.test(s)) throw ValidationError.of(field, "must be a message id (a positive integer)", "invalid");
  return Number(s);
}

// Changes to messages that exist: Chatwoot's soft delete, delivery status (from an API channel's
// client, or a callback that finally failed), a form's submitted values and read receipts. Each
// change and its message_updated event share one writeTx; a change to nothing records no event.
import type { ConversationRow, ConversationsRepo } from "../db/conversations.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import type { MessageRow, MessagesRepo, MessageStatus } from "../db/messages.repo.ts";
import { type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { actingAsSystem, type Acting } from "./acting.ts";
import type { AttachmentsService } from "./attachments.service.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import { ForbiddenError, NotFoundError, ValidationError } from "./errors.ts";
import type { CreatedMessage } from "./messages.service.ts";
import { conversationPushData } from "./presenters/conversation.presenter.ts";
import type { AccountRef } from "./presenters/contact.presenter.ts";
import { messageWebhookData } from "./presenters/message.presenter.ts";

export const DELETED_CONTENT = "This message was deleted";
const STATUSES: readonly MessageStatus[] = ["sent", "delivered", "read", "failed"];

export interface MessageUpdatesDeps {
  messages: MessagesRepo;
  conversations: ConversationsRepo;
  conversationRefs: ConversationRefsRepo;
  events: ConversationEvents;
  attachmentsService: AttachmentsService;
  writeTx: WriteTx;
  clock: Clock;
}

export class MessageUpdatesService {
  constructor(private readonly d: MessageUpdatesDeps) {}

  /** Soft delete as Chatwoot: content replaced, content_attributes {deleted: true}; message_updated. */
  async delete(a: Acting, conversation: ConversationRow, rawId: unknown): Promise<CreatedMessage> {
    // 404 on committed rows (PostgreSQL's read pool); the body reads the message again in its own.
    const found = await readSoon(this.readMessage(conversation, rawId));
    const { result, released } = await this.d.writeTx.steps(() => this.deleteSteps(a, conversation, found));
    this.d.attachmentsService.release(released);
    return result;
  }

  private *deleteSteps(
    a: Acting,
    conversation: ConversationRow,
    found: MessageRow,
  ): Reads<{ result: CreatedMessage; released: string[] }> {
    const current = (yield* this.d.messages.readById(conversation.id, found.id)) ?? found;
    const released = yield* this.d.attachmentsService.detachSteps(current.id);
    const deleted = {
      ...current,
      content: DELETED_CONTENT,
      content_type: "text",
      content_attributes: JSON.stringify({ deleted: true }),
      attachments: null,
    };
    const result = yield* this.saveChangeSteps(a, conversation, current, deleted, released.length > 0);
    return { result, released };
  }

  /** Delivery status from an API channel's client (Chatwoot's status_update_service). */
  async updateStatus(
    a: Acting,
    conversation: ConversationRow,
    rawId: unknown,
    input: { status?: unknown; external_error?: unknown },
  ): Promise<CreatedMessage> {
    // Committed rows, awaited on PostgreSQL's read pool; the body reads the message again in its own.
    const found = await readSoon(this.readChecked(conversation, rawId));
    if (found.channel !== "api") throw new ForbiddenError("Message status update is only allowed for API inboxes");
    if (typeof input.status !== "string" || !STATUSES.includes(input.status as MessageStatus)) {
      throw ValidationError.of("status", `must be one of: ${STATUSES.join(", ")}`, "invalid");
    }
    if (
      input.external_error !== undefined &&
      input.external_error !== null &&
      typeof input.external_error !== "string"
    ) {
      throw ValidationError.of("external_error", "must be a string", "invalid");
    }
    const status = input.status as MessageStatus;
    const error = typeof input.external_error === "string" ? input.external_error : null;
    return await this.d.writeTx.steps(() => this.statusSteps(a, conversation, found.message, status, error));
  }

  /** The message (404) and the conversation's channel, before an update's transaction. */
  private *readChecked(conversation: ConversationRow, rawId: unknown): Reads<{ message: MessageRow; channel: string }> {
    const message = yield* this.readMessage(conversation, rawId);
    const inbox = yield* this.d.conversationRefs.readInbox(conversation.account_id, conversation.inbox_id);
    return { message, channel: inbox?.channel_type ?? "" };
  }

  private *statusSteps(
    a: Acting,
    conversation: ConversationRow,
    found: MessageRow,
    status: MessageStatus,
    error: string | null,
  ): Reads<CreatedMessage> {
    const current = (yield* this.d.messages.readById(conversation.id, found.id)) ?? found;
    // Chatwoot refuses read → delivered silently: a receipt never goes backwards.
    if (current.status === "read" && status === "delivered") {
      const view = yield* this.d.events.readView(a, yield* this.d.events.readCurrent(conversation));
      return { message: current, view };
    }
    const attrs = JSON.parse(current.content_attributes) as Record<string, unknown>;
    if (status === "failed" && error !== null) attrs.external_error = error;
    else delete attrs.external_error;
    return yield* this.saveChangeSteps(a, conversation, current, {
      ...current,
      status,
      content_attributes: JSON.stringify(attrs),
    });
  }

  /**
   * The message's delivery finally failed (an API inbox's callback, or an email reply's sending):
   * the message becomes `failed` with the reason as external_error, as Chatwoot does. A message that
   * is already failed is left alone, so the callback for that update cannot start another cycle.
   * Steps of the failing sender's body (the webhook deliverer's, the mail sender's).
   */
  *markCallbackFailedSteps(account: AccountRef, messageId: number, reason: string): Reads<void> {
    const current = yield* this.d.messages.readInAccount(account.id, messageId);
    if (!current || current.status === "failed") return;
    const conversation = yield* this.d.conversations.readById(current.conversation_id);
    if (!conversation) return;
    const attrs = { ...(JSON.parse(current.content_attributes) as Record<string, unknown>), external_error: reason };
    yield* this.saveChangeSteps(actingAsSystem(account), conversation, current, {
      ...current,
      status: "failed",
      content_attributes: JSON.stringify(attrs),
    });
  }

  /**
   * Replaces a message's content_attributes (the public API's submitted_values); message_updated
   * when it changed. Steps of the caller's body, which also keeps a survey's answer.
   */
  *setContentAttributesSteps(
    a: Acting,
    conversation: ConversationRow,
    current: MessageRow,
    attrs: Record<string, unknown>,
  ): Reads<CreatedMessage> {
    return yield* this.saveChangeSteps(a, conversation, current, {
      ...current,
      content_attributes: JSON.stringify(attrs),
    });
  }

  /**
   * Read receipts (update_last_seen): each message becomes read, with its message_updated; steps
   * of the agent's and the contact's markSeen bodies.
   */
  *markReadSteps(a: Acting, conversation: ConversationRow, messages: readonly MessageRow[]): Reads<void> {
    for (const m of messages) yield* this.saveChangeSteps(a, conversation, m, { ...m, status: "read" });
  }

  private *saveChangeSteps(
    a: Acting,
    conversation: ConversationRow,
    before: MessageRow,
    after: MessageRow,
    filesChanged = false,
  ): Reads<CreatedMessage> {
    const changed =
      filesChanged ||
      before.content !== after.content ||
      before.status !== after.status ||
      before.content_attributes !== after.content_attributes ||
      before.content_type !== after.content_type;
    const view = yield* this.d.events.readView(a, yield* this.d.events.readCurrent(conversation));
    if (!changed) return { message: before, view };
    const saved = { ...after, updated_at: unixSeconds(this.d.clock) };
    yield* this.d.messages.saveSteps(saved);
    const fresh = yield* this.d.events.readView(a, view.row);
    yield* this.d.events.recordSteps(
      a,
      "message_updated",
      conversation,
      messageWebhookData(saved, fresh, conversationPushData(fresh)),
      saved.private === 1,
    );
    return { message: saved, view: fresh };
  }

  private *readMessage(conversation: ConversationRow, rawId: unknown): Reads<MessageRow> {
    const id =
      typeof rawId === "string" && /^\d{1,15}$/.test(rawId) ? Number(rawId) : typeof rawId === "number" ? rawId : NaN;
    const m = Number.isSafeInteger(id) && id > 0 ? yield* this.d.messages.readById(conversation.id, id) : null;
    if (!m) throw new NotFoundError("Message", "id", `no message ${String(rawId)} in this conversation`);
    return m;
  }
}

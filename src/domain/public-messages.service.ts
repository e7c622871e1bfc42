// Messages through the public API: the contact reads the messages it may
// see (never private notes or activity messages), writes incoming messages through the same path
// as the account API (flood guard, reopening, events with the contact as actor), and answers
// messages with submitted_values — a CSAT survey's answer is also kept as a survey response.
import type { AgentBotsRepo } from "../db/agent-bots.repo.ts";
import type { PreparedFile } from "./attachments.service.ts";
import type { ContactsRepo } from "../db/contacts.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import type { ConversationRow } from "../db/conversations.repo.ts";
import { ACTIVITY, type MessageRow, type MessagesRepo } from "../db/messages.repo.ts";
import type { PublicRepo } from "../db/public.repo.ts";
import { nested, type Reads, readNow, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { readBotsOf, senderIds, type SenderBook } from "./conversation-view.ts";
import type { CsatService } from "./csat.service.ts";
import { NotFoundError, ValidationError } from "./errors.ts";
import type { MessageInput } from "./message-input.ts";
import type { MessagesService } from "./messages.service.ts";
import type { MessageUpdatesService } from "./message-updates.service.ts";
import type { PublicLimits } from "./public-limits.ts";
import type { PublicScope } from "./public-contacts.service.ts";
import { cleanSubmittedValues, csatLocked } from "./submitted-values.ts";

/** Chatwoot's public page: the latest 20, or the 20 before a message id. */
export const PUBLIC_PAGE_SIZE = 20;

export interface PublicMessagesDeps {
  publicRepo: PublicRepo;
  agentBots: AgentBotsRepo;
  messages: MessagesRepo;
  contacts: ContactsRepo;
  conversationRefs: ConversationRefsRepo;
  messagesService: MessagesService;
  messageUpdates: MessageUpdatesService;
  csat: CsatService;
  limits: PublicLimits;
  writeTx: WriteTx;
  clock: Clock;
}

/** Messages ready for the presenter: with their senders. */
export interface PublicMessages {
  messages: MessageRow[];
  senders: SenderBook;
}

export class PublicMessagesService {
  constructor(private readonly d: PublicMessagesDeps) {}

  /** Oldest first. `before` pages back (a message id); anything but a positive integer is a 422. */
  list(row: ConversationRow, q: { before?: unknown }): PublicMessages {
    const before = beforeId(q.before);
    const messages =
      before === null
        ? this.d.publicRepo.latestVisible(row.id, PUBLIC_PAGE_SIZE)
        : this.d.publicRepo.visibleBefore(row.id, before, PUBLIC_PAGE_SIZE);
    return { messages, senders: this.senders(row.account_id, messages) };
  }

  /** list() as a Reads, for PostgreSQL (the in-place form above is SQLite's: see batch.ts on why both). */
  *readList(row: ConversationRow, q: { before?: unknown }): Reads<PublicMessages> {
    const before = beforeId(q.before);
    const messages = yield* nested(this.d.publicRepo.readVisible(row.id, before, PUBLIC_PAGE_SIZE));
    return { messages, senders: yield* nested(this.readSenders(row.account_id, messages)) };
  }

  /**
   * An incoming message from the contact: content, echo_id and files, and for the website chat the
   * message it replies to (Chatwoot's widget sends `message[reply_to]`), as Chatwoot takes them.
   */
  async create(
    scope: PublicScope,
    row: ConversationRow,
    input: { content?: unknown; echo_id?: unknown; reply_to?: unknown },
    files: readonly PreparedFile[] = [],
  ): Promise<PublicMessages> {
    this.d.limits.message(scope.contact.id);
    const { message } = await this.d.messagesService.create(scope.acting, row, incoming(input), null, files);
    return { messages: [message], senders: await this.sendersSoon(row.account_id, message) };
  }

  /** create() as steps of the caller's awaited body (the widget's messages); the message alone. */
  *createSteps(
    scope: PublicScope,
    row: ConversationRow,
    input: { content?: unknown; echo_id?: unknown; reply_to?: unknown },
    files: readonly PreparedFile[],
  ): Reads<MessageRow> {
    this.d.limits.message(scope.contact.id);
    return (yield* this.d.messagesService.createInTxSteps(scope.acting, row, incoming(input), "chat", files)).message;
  }

  /** The senders of one message just written: awaited on PostgreSQL (committed rows), in place on SQLite. */
  async sendersSoon(accountId: number, message: MessageRow): Promise<SenderBook> {
    // SQLite's plain statement calls cost less than a driven Reads (batch.ts).
    return this.d.publicRepo.pooled
      ? await readSoon(this.readSenders(accountId, [message]))
      : this.senders(accountId, [message]);
  }

  /**
   * Spec endpoint 1: sets content_attributes.submitted_values (nothing else changes) and records
   * message_updated. On a CSAT survey the answer is locked after 14 days (422) and kept as the
   * survey's response. A body without submitted_values changes nothing (Chatwoot).
   */
  async update(
    scope: PublicScope,
    row: ConversationRow,
    rawId: unknown,
    input: { submitted_values?: unknown },
  ): Promise<PublicMessages> {
    // Committed rows (PostgreSQL's read pool); the body reads the message again in its own.
    const current = await readSoon(this.readVisible(row, rawId));
    const submitted = cleanSubmittedValues(input.submitted_values);
    const survey = current.content_type === "input_csat";
    if (survey && csatLocked(current.created_at, unixSeconds(this.d.clock))) {
      throw ValidationError.of("submitted_values", "You cannot update the CSAT survey after 14 days", "invalid");
    }
    const message = submitted
      ? await this.d.writeTx.steps(() => this.submitSteps(scope, row, current, submitted))
      : current;
    return { messages: [message], senders: await this.sendersSoon(row.account_id, message) };
  }

  private *submitSteps(
    scope: PublicScope,
    row: ConversationRow,
    found: MessageRow,
    submitted: NonNullable<ReturnType<typeof cleanSubmittedValues>>,
  ): Reads<MessageRow> {
    const current = (yield* this.d.messages.readById(row.id, found.id)) ?? found;
    const attrs = {
      ...(JSON.parse(current.content_attributes) as Record<string, unknown>),
      submitted_values: submitted.values,
    };
    const saved = (yield* this.d.messageUpdates.setContentAttributesSteps(scope.acting, row, current, attrs)).message;
    if (current.content_type === "input_csat" && submitted.csat)
      yield* this.d.csat.recordAnswerSteps(row, saved, submitted.csat);
    return saved;
  }

  /** The senders of these messages: users with their membership of the account, contacts. */
  senders(accountId: number, messages: readonly MessageRow[]): SenderBook {
    const ids = senderIds(messages);
    const bots = readNow(readBotsOf(this.d.agentBots, messages));
    return {
      users: this.d.conversationRefs.members(accountId, ids.users),
      contacts: this.d.contacts.byIds(ids.contacts),
      ...(bots ? { bots } : {}),
    };
  }

  *readSenders(accountId: number, messages: readonly MessageRow[]): Reads<SenderBook> {
    const ids = senderIds(messages);
    const bots = yield* nested(readBotsOf(this.d.agentBots, messages));
    const users = yield* nested(this.d.conversationRefs.readMembers(accountId, ids.users));
    const contacts = yield* nested(this.d.contacts.readByIds(ids.contacts));
    return { users, contacts, ...(bots ? { bots } : {}) };
  }

  /** A message of the conversation the contact may see; private notes and activity messages are as unknown as a wrong id. */
  private *readVisible(row: ConversationRow, rawId: unknown): Reads<MessageRow> {
    const id = typeof rawId === "string" && /^\d{1,15}$/.test(rawId) ? Number(rawId) : NaN;
    const m = Number.isSafeInteger(id) && id > 0 ? yield* this.d.messages.readById(row.id, id) : null;
    if (!m || m.private === 1 || m.message_type === ACTIVITY)
      throw new NotFoundError("Message", "message_id", `no message ${String(rawId)} in this conversation`);
    return m;
  }
}

/** The contact's message as the message service takes it: incoming, and replying to a message when it says so. */
function incoming(input: { content?: unknown; echo_id?: unknown; reply_to?: unknown }): MessageInput {
  const replyTo = input.reply_to === undefined || input.reply_to === null ? {} : { in_reply_to: input.reply_to };
  return { content: input.content, echo_id: input.echo_id, message_type: "incoming", content_attributes: replyTo };
}

function beforeId(raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === "") return null;
  const s = typeof raw === "string" ? raw.trim() : String(raw);
  if (!/^\d{1,15}$/.test(s) || Number(s) === 0)
    throw ValidationError.of("before", "must be a message id (a positive integer)", "invalid");
  return Number(s);
}

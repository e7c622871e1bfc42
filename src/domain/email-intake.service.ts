// Files one incoming mail in an email inbox, in one transaction with the inbox's IMAP checkpoint
// (an awaited body on PostgreSQL: nothing of it runs in place),
// so that after a crash a mail is either filed and past the checkpoint, or neither:
//   sender → contact (found by email, else created), a reply → its conversation (In-Reply-To and
//   References against the Message-IDs this inbox received and sent, then a reply+<uuid>@ address),
//   anything else → a new conversation. The Message-ID is a unique key per inbox: a mail seen
//   again (a restart, a folder re-read) is recognised and not filed twice.
// Mail sent by machines (auto-replies, bounces, bulk) opens nothing and triggers nothing: when it
// answers a known conversation it is kept there as a private note, so agents still see a bounce.
import type { ConversationRow, ConversationsRepo } from "../db/conversations.repo.ts";
import type { ContactRow, ContactsRepo } from "../db/contacts.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import type { EmailChannelsRepo } from "../db/email-channels.repo.ts";
import { nested, type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { IncomingMail } from "./incoming-mail.ts";
import { actingAsContact, actingAsSystem } from "./acting.ts";
import type { AttachmentsService, PreparedFile } from "./attachments.service.ts";
import { EMPTY_CONTACT } from "./contact-input.ts";
import type { ContactsService } from "./contacts.service.ts";
import type { ConversationsService } from "./conversations.service.ts";
import { MAX_CONTENT } from "./message-input.ts";
import type { MessagesService } from "./messages.service.ts";
import type { AccountRef } from "./presenters/contact.presenter.ts";

export interface EmailIntakeDeps {
  emailChannels: EmailChannelsRepo;
  contacts: ContactsRepo;
  conversations: ConversationsRepo;
  conversationRefs: ConversationRefsRepo;
  contactsService: ContactsService;
  conversationsService: ConversationsService;
  messagesService: MessagesService;
  attachmentsService: AttachmentsService;
  writeTx: WriteTx;
  clock: Clock;
}

export interface MailboxPosition {
  inboxId: number;
  account: AccountRef;
  uidValidity: number;
  uid: number;
}

export type FilingResult =
  | { result: "filed"; conversationId: number; messageId: number; created: boolean }
  | { result: "duplicate" }
  | { result: "skipped"; reason: string };

const PLUS_ADDRESS = /\+([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@/i;

export class EmailIntakeService {
  constructor(private readonly d: EmailIntakeDeps) {}

  async file(at: MailboxPosition, mail: IncomingMail): Promise<FilingResult> {
    const known = (await readSoon(this.d.emailChannels.readMessageId(at.inboxId, mail.messageId))) !== null;
    // Files are staged before the transaction (they may go to S3); a duplicate stages nothing.
    const files = known || mail.automated ? [] : await this.d.attachmentsService.prepareBytes(mail.files);
    // Their keys count as in use until the body has settled (AttachmentsService.holding).
    const held = this.d.attachmentsService.holding(files);
    return await this.d.writeTx.steps(() => this.fileSteps(at, mail, files)).finally(held);
  }

  /** Moves the checkpoint past a mail that cannot be filed (unreadable, too large). */
  async skip(at: MailboxPosition): Promise<void> {
    await this.d.writeTx.steps(() => this.d.emailChannels.checkpointSteps(at.inboxId, at.uidValidity, at.uid));
  }

  /** One body, awaited on PostgreSQL: the mail filed (or recognised) and the checkpoint past it. */
  private *fileSteps(at: MailboxPosition, mail: IncomingMail, files: readonly PreparedFile[]): Reads<FilingResult> {
    const result = yield* this.filingSteps(at, mail, files);
    yield* this.d.emailChannels.checkpointSteps(at.inboxId, at.uidValidity, at.uid);
    return result;
  }

  private *filingSteps(at: MailboxPosition, mail: IncomingMail, files: readonly PreparedFile[]): Reads<FilingResult> {
    const channels = this.d.emailChannels;
    const now = unixSeconds(this.d.clock);
    if (yield* nested(channels.readMessageId(at.inboxId, mail.messageId))) return { result: "duplicate" };
    const record = (conversationId: number | null, messageId: number | null) =>
      channels.recordMessageIdSteps(
        at.inboxId,
        { header_id: mail.messageId, conversation_id: conversationId, message_id: messageId, direction: "in" },
        now,
      );
    const thread = yield* this.readThread(at, mail);
    if (mail.automated || !mail.from) {
      const reason = mail.automated ?? "no sender address";
      if (!thread) {
        yield* record(null, null);
        return { result: "skipped", reason };
      }
      const note = yield* this.d.messagesService.createInTxSteps(
        actingAsSystem(at.account),
        thread,
        {
          content:
            `Automatic mail (${reason.replace("_", " ")}) from ${mail.from?.address ?? "an unknown sender"}: ${mail.subject}\n\n${mail.reply}`.slice(
              0,
              MAX_CONTENT,
            ),
          message_type: "outgoing",
          private: true,
        },
        "chat",
        [],
      );
      yield* record(thread.id, note.message.id);
      return { result: "skipped", reason };
    }
    const contact = yield* this.contactSteps(at.account, mail.from);
    const acting = actingAsContact(at.account, contact);
    let conversation = thread;
    if (!conversation) {
      conversation = yield* this.d.conversationsService.createSteps(acting, {
        inbox_id: at.inboxId,
        contact_id: contact.id,
        source_id: mail.from.address,
        additional_attributes: {
          source: "email",
          mail_subject: mail.subject,
          ...(mail.cc.length ? { cc_emails: mail.cc.map((c) => c.address) } : {}),
        },
      });
    } else {
      const inbox = (yield* nested(this.d.conversationRefs.readInbox(at.account.id, at.inboxId)))!;
      yield* this.d.contactsService.addContactInboxSteps(contact, inbox, mail.from.address, false, now);
    }
    const created = yield* this.d.messagesService.createInTxSteps(
      acting,
      conversation,
      {
        content: (mail.reply || mail.subject).slice(0, MAX_CONTENT),
        message_type: "incoming",
        content_type: "incoming_email",
        content_attributes: { email: emailAttributes(mail) },
      },
      "chat",
      files,
    );
    yield* record(conversation.id, created.message.id);
    return { result: "filed", conversationId: conversation.id, messageId: created.message.id, created: !thread };
  }

  /** The conversation a reply belongs to, by its threading headers, then by a reply+<uuid>@ address. */
  private *readThread(at: MailboxPosition, mail: IncomingMail): Reads<ConversationRow | null> {
    const channels = this.d.emailChannels;
    const conversations = this.d.conversations;
    for (const id of [...mail.inReplyTo, ...[...mail.references].reverse()]) {
      const known = yield* nested(channels.readMessageId(at.inboxId, id));
      const row = known?.conversation_id ? yield* nested(conversations.readById(known.conversation_id)) : null;
      if (row && row.inbox_id === at.inboxId) return row;
    }
    for (const a of [...mail.to, ...mail.cc]) {
      const uuid = PLUS_ADDRESS.exec(a.address)?.[1];
      const id = uuid ? yield* nested(channels.readConversationByUuid(at.inboxId, uuid.toLowerCase())) : null;
      if (id !== null) return yield* nested(conversations.readById(id));
    }
    return null;
  }

  private *contactSteps(account: AccountRef, from: { name: string; address: string }): Reads<ContactRow> {
    const id = yield* nested(this.d.contacts.readHolderOf(account.id, "email", from.address));
    if (id !== null) return (yield* nested(this.d.contacts.readById(account.id, id)))!;
    const name = (from.name || from.address.split("@")[0]!).slice(0, 255);
    return yield* this.d.contactsService.createSelfSteps(account, { ...EMPTY_CONTACT, name, email: from.address });
  }
}

/** What the thread shows of the mail (Chatwoot keeps these under content_attributes.email). */
function emailAttributes(mail: IncomingMail) {
  return {
    subject: mail.subject,
    from: mail.from ? [mail.from.address] : [],
    to: mail.to.map((a) => a.address),
    cc: mail.cc.map((a) => a.address),
    message_id: mail.messageId,
    in_reply_to: mail.inReplyTo[0] ?? null,
    text_content: { reply: mail.reply.slice(0, MAX_CONTENT), quoted: mail.quoted?.slice(0, MAX_CONTENT) ?? null },
    html_content: { full: mail.html?.slice(0, MAX_CONTENT) ?? null },
  };
}

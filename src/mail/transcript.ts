// POST conversations/:id/transcript (Chatwoot's): mails a conversation's public messages to an
// address, through the SMTP server of the conversation's email inbox, or else of another email inbox
// of the account (Chatwoot uses the installation's SMTP; Parley has none of its own). Sent while the
// request waits, so the caller learns in words if the server refused it; private notes never leave.
import type { ConversationRow } from "../db/conversations.repo.ts";
import type { EmailChannelRow, EmailChannelsRepo } from "../db/email-channels.repo.ts";
import type { InboxesRepo, InboxRow } from "../db/inboxes.repo.ts";
import type { MessageRow, MessagesRepo } from "../db/messages.repo.ts";
import { nested, type Reads } from "../db/reads.ts";
import type { Acting } from "../domain/acting.ts";
import { AppError, ValidationError } from "../domain/errors.ts";
import type { PublicMessagesService } from "../domain/public-messages.service.ts";
import { emptySenders, type SenderBook } from "../domain/conversation-view.ts";
import { emailValue } from "../domain/validate.ts";
import { FieldErrors } from "../domain/errors.ts";
import type { MailConfig } from "../config-mail.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import { channelAttributes } from "../domain/presenters/inbox.presenter.ts";
import { describeMailError } from "./mail-errors.ts";
import { smtpTransport } from "./smtp-sender.ts";

/** The newest messages a transcript carries. */
const TRANSCRIPT_MESSAGES = 500;

export interface TranscriptDeps {
  emailChannels: EmailChannelsRepo;
  inboxes: InboxesRepo;
  messages: MessagesRepo;
  publicMessages: PublicMessagesService;
  secretBox: SecretBox;
  config: MailConfig;
}

/** What a transcript is made of, read in one go before anything is sent. */
export interface TranscriptParts {
  conversation: ConversationRow;
  /** The email inbox that sends it; null when the account has none that can. */
  channel: EmailChannelRow | null;
  inbox: InboxRow | null;
  messages: MessageRow[];
  senders: SenderBook;
}

export class TranscriptMailer {
  constructor(private readonly d: TranscriptDeps) {}

  /** The conversation's parts, as steps: awaited on PostgreSQL with the conversation's lookup (the route's `about`). */
  *readParts(accountId: number, conversation: ConversationRow): Reads<TranscriptParts> {
    const channel = yield* nested(this.d.emailChannels.readSendingChannel(accountId, conversation.inbox_id));
    if (!channel) return { conversation, channel, inbox: null, messages: [], senders: emptySenders() };
    const inbox = yield* nested(this.d.inboxes.readById(accountId, channel.inbox_id));
    const messages = (yield* nested(this.d.messages.readLatest(conversation.id, TRANSCRIPT_MESSAGES))).filter(
      (m) => m.private === 0 && m.message_type !== 2,
    );
    const senders = yield* nested(this.d.publicMessages.readSenders(accountId, messages));
    return { conversation, channel, inbox, messages, senders };
  }

  async send(a: Acting, parts: TranscriptParts, rawEmail: unknown): Promise<void> {
    const errors = new FieldErrors();
    const to = emailValue(errors, "email", rawEmail, true);
    errors.throwIfAny();
    const { conversation, channel, inbox, messages, senders } = parts;
    if (!channel || !inbox)
      throw ValidationError.of(
        "email",
        "no email inbox of this account has an SMTP server to send it with",
        "unsupported",
      );
    const from = channelAttributes(inbox).email ?? channel.smtp_login ?? "";
    const { users, contacts } = senders;
    const lines = messages.map((m) => {
      const who =
        m.sender_type === "User"
          ? (users.get(m.sender_id!)?.user.name ?? "Agent")
          : m.sender_type === "Contact"
            ? (contacts.get(m.sender_id!)?.name ?? "Customer")
            : (inbox.business_name ?? inbox.name);
      return `${who} (${new Date(m.created_at * 1000).toISOString().replace("T", " ").slice(0, 16)} UTC):\n${m.content ?? "(a file)"}\n`;
    });
    const server = `SMTP server ${channel.smtp_address}:${channel.smtp_port}`;
    try {
      const transport = await smtpTransport(channel, this.d.secretBox, this.d.config.allowPrivateHosts);
      try {
        await transport.sendMail({
          from: { name: inbox.business_name ?? a.account.name, address: from },
          to: to!,
          subject: `[${a.account.name}] Conversation #${conversation.display_id} transcript`,
          text: lines.join("\n"),
        });
      } finally {
        transport.close();
      }
    } catch (error) {
      throw new AppError(502, "The transcript could not be sent", [
        { field: "email", message: describeMailError(error, server), code: "delivery_failed" },
      ]);
    }
  }
}

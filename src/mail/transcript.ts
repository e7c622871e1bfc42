// POST conversations/:id/transcript (Chatwoot's): mails a conversation's public messages to an
// address, through the SMTP server of the conversation's email inbox, or else of another email inbox
// of the account (Chatwoot uses the installation's SMTP; Parley has none of its own). Sent while the
// request waits, so the caller learns in words if the server refused it; private notes never leave.
import type { ConversationRow } from "../db/conversations.repo.ts";
import type { EmailChannelsRepo } from "../db/email-channels.repo.ts";
import type { InboxesRepo } from "../db/inboxes.repo.ts";
import type { MessagesRepo } from "../db/messages.repo.ts";
import type { Acting } from "../domain/acting.ts";
import { AppError, ValidationError } from "../domain/errors.ts";
import type { PublicMessagesService } from "../domain/public-messages.service.ts";
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

export class TranscriptMailer {
  constructor(private readonly d: TranscriptDeps) {}

  async send(a: Acting, conversation: ConversationRow, rawEmail: unknown): Promise<void> {
    const errors = new FieldErrors();
    const to = emailValue(errors, "email", rawEmail, true);
    errors.throwIfAny();
    const channel = this.d.emailChannels.sendingChannel(a.account.id, conversation.inbox_id);
    if (!channel)
      throw ValidationError.of(
        "email",
        "no email inbox of this account has an SMTP server to send it with",
        "unsupported",
      );
    const inbox = this.d.inboxes.byId(a.account.id, channel.inbox_id)!;
    const from = channelAttributes(inbox).email ?? channel.smtp_login ?? "";
    const messages = this.d.messages
      .latest(conversation.id, TRANSCRIPT_MESSAGES)
      .filter((m) => m.private === 0 && m.message_type !== 2);
    const { users, contacts } = this.d.publicMessages.senders(a.account.id, messages);
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

// Gathers what a queued email reply needs at the moment it is sent (settings changed since it was
// queued apply): the message, the conversation's customer address and thread, the inbox's From,
// the agent's name, and the bytes of the message's files.
import type { AttachmentCopy, AttachmentRow, AttachmentsRepo } from "../db/attachments.repo.ts";
import type { ContactInboxesRepo } from "../db/contact-inboxes.repo.ts";
import type { ContactsRepo } from "../db/contacts.repo.ts";
import type { ConversationsRepo } from "../db/conversations.repo.ts";
import type { EmailChannelRow, EmailChannelsRepo } from "../db/email-channels.repo.ts";
import type { EmailOutboxRow } from "../db/email-outbox.repo.ts";
import type { InboxesRepo } from "../db/inboxes.repo.ts";
import type { MessagesRepo } from "../db/messages.repo.ts";
import type { UsersRepo } from "../db/users.repo.ts";
import type { FileStore } from "../files/store.ts";
import { channelAttributes } from "../domain/presenters/inbox.presenter.ts";
import { type Reads, readSoon } from "../db/reads.ts";
import { replySubject, type ReplyData } from "./compose-reply.ts";
import type { ReplyLookup } from "./smtp-sender.ts";

export interface ReplyLookupDeps {
  messages: MessagesRepo;
  conversations: ConversationsRepo;
  contacts: ContactsRepo;
  contactInboxes: ContactInboxesRepo;
  inboxes: InboxesRepo;
  users: UsersRepo;
  emailChannels: EmailChannelsRepo;
  attachments: AttachmentsRepo;
  store: FileStore;
}

/** Read on PostgreSQL's read pool, awaited (the reply's row and message have committed). */
export function replyLookup(d: ReplyLookupDeps): ReplyLookup {
  return async (row: EmailOutboxRow) => {
    const found = await readSoon(readReply(d, row));
    if ("gone" in found) return found;
    const { channel, data, attachments } = found;
    return { channel, data: { ...data, files: await filesOf(d, attachments) } };
  };
}

type Found = { channel: EmailChannelRow; data: Omit<ReplyData, "files">; attachments: AttachmentRow[] };

function* readReply(d: ReplyLookupDeps, row: EmailOutboxRow): Reads<Found | { gone: string }> {
  const message = yield* d.messages.readById(row.conversation_id, row.message_id);
  if (!message || (message.content === null && !message.attachments)) return { gone: "the message was deleted" };
  const conversation = yield* d.conversations.readById(row.conversation_id);
  const inbox = yield* d.inboxes.readById(row.account_id, row.inbox_id);
  const channel = yield* d.emailChannels.readByInbox(row.inbox_id);
  if (!conversation || !inbox) return { gone: "the conversation or its inbox was deleted" };
  if (channel?.smtp_enabled !== 1 || !channel.smtp_address)
    return { gone: "the inbox has no SMTP server set up (Settings → Inboxes → Email)" };
  const inboxEmail = channelAttributes(inbox).email;
  if (!inboxEmail) return { gone: "the inbox has no email address" };
  const contactInbox = yield* d.contactInboxes.readById(conversation.contact_inbox_id);
  const contact = yield* d.contacts.readById(row.account_id, conversation.contact_id);
  const to = contactInbox?.source_id.includes("@") ? contactInbox.source_id : contact?.email;
  if (!to) return { gone: "the contact has no email address" };
  const attrs = JSON.parse(conversation.additional_attributes) as { mail_subject?: string; cc_emails?: string[] };
  const thread = (yield* d.emailChannels.readThread(conversation.id)).filter((t) => t.message_id !== row.message_id);
  const lastIn = thread.filter((t) => t.direction === "in").at(-1)?.header_id ?? null;
  const sender =
    message.sender_type === "User" && message.sender_id !== null ? yield* d.users.readById(message.sender_id) : null;
  const business = inbox.business_name?.trim() || inbox.name;
  const data: Omit<ReplyData, "files"> = {
    headerId: row.header_id,
    inboxEmail,
    businessName: business,
    senderName: inbox.sender_name_type === "professional" ? null : sender?.display_name || sender?.name || null,
    to,
    cc: Array.isArray(attrs.cc_emails) ? attrs.cc_emails.filter((c) => typeof c === "string") : [],
    subject: replySubject(attrs.mail_subject ?? null, `[#${conversation.display_id}] ${business}`),
    thread: thread.map((t) => t.header_id),
    inReplyTo: lastIn,
    text: message.content ?? "",
    replyTo: channel.reply_plus_addressing === 1 ? plusAddress(inboxEmail, conversation.uuid) : null,
  };
  // The files' rows with the rest, in the same read; only their bytes are fetched afterwards.
  const copies = message.attachments ? (JSON.parse(message.attachments) as AttachmentCopy[]) : [];
  const attachments: AttachmentRow[] = [];
  for (const copy of copies) {
    const file = yield* d.attachments.readById(copy.id);
    if (file) attachments.push(file);
  }
  return { channel, data, attachments };
}

async function filesOf(d: ReplyLookupDeps, rows: AttachmentRow[]) {
  const files = [];
  for (const row of rows) {
    const body = await d.store.read(row.storage_key, row.file_size);
    if (!body) continue;
    files.push({
      filename: row.filename,
      contentType: row.content_type,
      content: Buffer.from(await new Response(body).arrayBuffer()),
    });
  }
  return files;
}

/** support@acme.com → support+<uuid>@acme.com: the customer's answer names its conversation in the To. */
export function plusAddress(email: string, uuid: string): string {
  const at = email.lastIndexOf("@");
  return `${email.slice(0, at).split("+")[0]}+${uuid}${email.slice(at)}`;
}

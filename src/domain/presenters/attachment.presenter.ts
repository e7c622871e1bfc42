// Chatwoot's Attachment#push_event_data: the record every message shows for each of its files.
// `thumb_url` is the image itself (Parley keeps no resized copies: no image library in the binary;
// browsers scale), and empty for other files, as Chatwoot leaves it.
import type { AttachmentCopy, ConversationAttachmentRow } from "../../db/attachments.repo.ts";
import type { MessageRow } from "../../db/messages.repo.ts";
import type { FileLinks } from "../../files/links.ts";

export function attachmentData(copy: AttachmentCopy, messageId: number, accountId: number, links: FileLinks) {
  const dataUrl = links.url(copy);
  return {
    id: copy.id,
    message_id: messageId,
    file_type: copy.file_type,
    account_id: accountId,
    extension: copy.extension,
    data_url: dataUrl,
    thumb_url: copy.file_type === "image" ? dataUrl : "",
    file_size: copy.file_size,
    width: copy.width,
    height: copy.height,
  };
}

export type AttachmentData = ReturnType<typeof attachmentData>;

/** The message's attachments, or null when it has none (the key is then left out, as Chatwoot does). */
export function attachmentsOf(
  m: Pick<MessageRow, "id" | "account_id" | "attachments">,
  links: FileLinks,
): AttachmentData[] | null {
  if (!m.attachments) return null;
  const copies = JSON.parse(m.attachments) as AttachmentCopy[];
  return copies.length > 0 ? copies.map((c) => attachmentData(c, m.id, m.account_id, links)) : null;
}

/** An entry of GET conversations/:id/attachments: the record plus its message's time. */
export function conversationAttachmentOf(a: ConversationAttachmentRow, links: FileLinks) {
  return { ...attachmentData(a, a.message_id, a.account_id, links), created_at: a.message_created_at };
}

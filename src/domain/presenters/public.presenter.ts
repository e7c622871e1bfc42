// Wire shapes of the public (client) API (Chatwoot's public/api/v1 views, spec's public Message
// and Sender tables). They show a contact only what is theirs: no private notes, no activity
// messages, no agent emails.
import type { ContactInboxRow } from "../../db/contact-inboxes.repo.ts";
import type { ContactRow } from "../../db/contacts.repo.ts";
import type { ConversationRow } from "../../db/conversations.repo.ts";
import type { InboxRow } from "../../db/inboxes.repo.ts";
import type { MessageRow } from "../../db/messages.repo.ts";
import { isoFromSeconds } from "../../lib/clock.ts";
import type { SenderBook } from "../conversation-view.ts";
import type { WorkingHoursEntry } from "../working-hours.ts";
import { attributes } from "./contact.presenter.ts";
import type { FileLinks } from "../../files/links.ts";
import { attachmentsOf } from "./attachment.presenter.ts";
import { senderPushData } from "./message.presenter.ts";

/** GET /public/api/v1/inboxes/:inbox_identifier */
export function publicInboxOf(row: InboxRow) {
  return {
    identifier: row.identifier ?? "",
    identity_validation_enabled: row.hmac_mandatory === 1,
    name: row.name,
    timezone: row.timezone,
    working_hours: JSON.parse(row.working_hours) as WorkingHoursEntry[],
    working_hours_enabled: row.working_hours_enabled === 1,
    csat_survey_enabled: row.csat_survey_enabled === 1,
    greeting_enabled: row.greeting_enabled === 1,
  };
}

/** A contact identity: create, show and update answer this. */
export function publicContactOf(ci: ContactInboxRow, c: ContactRow) {
  return {
    source_id: ci.source_id,
    pubsub_token: ci.pubsub_token,
    id: c.id,
    name: c.name,
    email: c.email,
    phone_number: c.phone_number,
  };
}

/** The contact inside a public conversation: Chatwoot renders the contact's record (ISO timestamps). */
export function publicContactRecord(c: ContactRow) {
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone_number: c.phone_number,
    identifier: c.identifier,
    blocked: c.blocked === 1,
    additional_attributes: attributes(c.additional_attributes),
    custom_attributes: attributes(c.custom_attributes),
    account_id: c.account_id,
    last_activity_at: isoFromSeconds(c.last_activity_at),
    created_at: isoFromSeconds(c.created_at)!,
    updated_at: isoFromSeconds(c.updated_at)!,
  };
}

/** The spec's Sender: contact and user push data; a bot by its id (Parley has no bot records yet). */
export function publicSenderOf(m: MessageRow, senders: SenderBook): Record<string, unknown> | null {
  if (m.sender_type === "AgentBot" && m.sender_id !== null) {
    const b = senders.bots?.get(m.sender_id);
    return { id: m.sender_id, name: b?.name ?? null, avatar_url: b?.avatar_url ?? "", type: "agent_bot" };
  }
  return senderPushData(m, senders);
}

/** The spec's Message (public API record); `attachments` and `sender` only when there are some. */
export function publicMessageOf(m: MessageRow, displayId: number, senders: SenderBook, links: FileLinks) {
  const sender = publicSenderOf(m, senders);
  const files = attachmentsOf(m, links);
  return {
    id: m.id,
    content: m.content,
    message_type: m.message_type,
    content_type: m.content_type,
    content_attributes: attributes(m.content_attributes),
    created_at: m.created_at,
    conversation_id: displayId,
    ...(sender ? { sender } : {}),
    ...(files ? { attachments: files } : {}),
  };
}

/** Chatwoot's public conversation; `messages` are its newest visible messages, oldest first. */
export function publicConversationOf(
  row: ConversationRow,
  contact: ContactRow,
  messages: readonly MessageRow[],
  senders: SenderBook,
  links: FileLinks,
) {
  return {
    id: row.display_id,
    uuid: row.uuid,
    inbox_id: row.inbox_id,
    contact_last_seen_at: row.contact_last_seen_at ?? 0,
    status: row.status,
    agent_last_seen_at: row.agent_last_seen_at ?? 0,
    messages: messages.map((m) => publicMessageOf(m, row.display_id, senders, links)),
    contact: publicContactRecord(contact),
  };
}

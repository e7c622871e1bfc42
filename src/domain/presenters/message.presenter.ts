// Wire shapes of messages: the account API record (the union of Chatwoot's rendered fields and
// the spec's record, docs/compatibility.md #6), push data (realtime, conversation `messages`) and webhook data.
import type { MessageRow } from "../../db/messages.repo.ts";
import { MESSAGE_TYPES } from "../../db/messages.repo.ts";
import { isoFromSeconds } from "../../lib/clock.ts";
import type { FileLinks } from "../../files/links.ts";
import type { ConversationView, SenderBook } from "../conversation-view.ts";
import { attachmentsOf } from "./attachment.presenter.ts";
import { attributes, contactPushData, contactWebhookData, type AccountRef } from "./contact.presenter.ts";
import { userPushData } from "./user.presenter.ts";

/** What every message of one conversation shares on the wire. */
export interface MessageScope {
  displayId: number;
  summary: {
    assignee_id: number | null;
    unread_count: number;
    last_activity_at: number;
    contact_inbox: { source_id: string };
  };
  senders: SenderBook;
  links: FileLinks;
}

export function messageScope(v: ConversationView): MessageScope {
  return {
    displayId: v.row.display_id,
    summary: {
      assignee_id: v.row.assignee_id,
      unread_count: v.unreadCount,
      last_activity_at: v.row.last_activity_at,
      contact_inbox: { source_id: v.contactInbox.source_id },
    },
    senders: v.senders,
    links: v.links,
  };
}

/** Chatwoot's AgentBot#push_event_data. */
function botPushData(id: number, senders: SenderBook) {
  const b = senders.bots?.get(id);
  return {
    id,
    name: b?.name ?? null,
    avatar_url: b?.avatar_url ?? "",
    thumbnail: b?.avatar_url ?? "",
    type: "agent_bot",
  };
}

export function senderPushData(m: MessageRow, senders: SenderBook) {
  if (m.sender_id === null) return null;
  if (m.sender_type === "AgentBot") return botPushData(m.sender_id, senders);
  if (m.sender_type === "User") {
    const u = senders.users.get(m.sender_id);
    return u ? userPushData(u.user, u.membership) : null;
  }
  if (m.sender_type === "Contact") {
    const c = senders.contacts.get(m.sender_id);
    return c ? contactPushData(c) : null;
  }
  return null;
}

function record<U extends number | string | null>(m: MessageRow, scope: MessageScope, updatedAt: U) {
  const sender = senderPushData(m, scope.senders);
  const files = attachmentsOf(m, scope.links);
  return {
    id: m.id,
    content: m.content,
    account_id: m.account_id,
    inbox_id: m.inbox_id,
    conversation_id: scope.displayId,
    message_type: m.message_type,
    created_at: m.created_at,
    updated_at: updatedAt,
    private: m.private === 1,
    status: m.status,
    source_id: m.source_id,
    content_type: m.content_type,
    content_attributes: attributes(m.content_attributes),
    sender_type: m.sender_type,
    sender_id: m.sender_id,
    external_source_ids: attributes(m.external_source_ids),
    additional_attributes: attributes(m.additional_attributes),
    processed_message_content: m.content,
    sentiment: {} as Record<string, unknown>,
    conversation: scope.summary,
    ...(m.echo_id ? { echo_id: m.echo_id } : {}),
    ...(sender ? { sender } : {}),
    ...(files ? { attachments: files } : {}),
  };
}

/** The account API record: the spec's Message with Unix-second updated_at. */
export function messageOf(m: MessageRow, scope: MessageScope) {
  return record(m, scope, m.updated_at);
}

/** Chatwoot's push_event_data: as the record, but updated_at is the raw time (ISO 8601). */
export function messagePushData(m: MessageRow, scope: MessageScope) {
  return record(m, scope, isoFromSeconds(m.updated_at));
}

export function senderWebhookData(m: MessageRow, senders: SenderBook, account: AccountRef) {
  if (m.sender_id === null) return null;
  if (m.sender_type === "AgentBot")
    return { id: m.sender_id, name: senders.bots?.get(m.sender_id)?.name ?? null, type: "agent_bot" };
  if (m.sender_type === "User") {
    const u = senders.users.get(m.sender_id);
    return u ? { id: u.user.id, name: u.user.name, email: u.user.email, type: "user" } : null;
  }
  if (m.sender_type === "Contact") {
    const c = senders.contacts.get(m.sender_id);
    return c ? contactWebhookData(c, account) : null;
  }
  return null;
}

/** message_created / message_updated payload (Chatwoot's Message#webhook_data). */
export function messageWebhookData(m: MessageRow, v: ConversationView, conversationPush: Record<string, unknown>) {
  const files = attachmentsOf(m, v.links);
  return {
    account: { id: v.account.id, name: v.account.name },
    additional_attributes: attributes(m.additional_attributes),
    content_attributes: attributes(m.content_attributes),
    content_type: m.content_type,
    content: m.content,
    conversation: conversationPush,
    created_at: isoFromSeconds(m.created_at),
    id: m.id,
    inbox: { id: v.inbox.id, name: v.inbox.name },
    message_type: MESSAGE_TYPES[m.message_type],
    private: m.private === 1,
    sender: senderWebhookData(m, v.senders, v.account),
    source_id: m.source_id,
    ...(files ? { attachments: files } : {}),
  };
}

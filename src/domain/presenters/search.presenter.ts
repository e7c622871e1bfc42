// The shapes of Chatwoot's search results (its search/_*.json partials): slimmer than the API
// objects of the same records, with times as unix seconds, and an empty object where a
// conversation has no first message, contact, inbox or assignee.
import type { ContactRow } from "../../db/contacts.repo.ts";
import type { InboxRef, MemberRef } from "../../db/conversation-refs.repo.ts";
import type { ConversationRow } from "../../db/conversations.repo.ts";
import type { MessageRow } from "../../db/messages.repo.ts";
import { channelTypeName } from "../channels.ts";
import { attributes, contactPushData } from "./contact.presenter.ts";
import { userPushData } from "./user.presenter.ts";

export function searchContactOf(c: ContactRow) {
  return {
    email: c.email,
    id: c.id,
    name: c.name,
    phone_number: c.phone_number,
    identifier: c.identifier,
    additional_attributes: attributes(c.additional_attributes),
    last_activity_at: c.last_activity_at,
  };
}

export function searchInboxOf(inbox: InboxRef) {
  return { id: inbox.id, channel_id: inbox.id, name: inbox.name, channel_type: channelTypeName(inbox.channel_type) };
}

export function searchAgentOf(m: MemberRef) {
  return {
    id: m.user.id,
    available_name: m.user.display_name ?? m.user.name,
    email: m.user.email,
    name: m.user.name,
    role: m.membership?.role ?? null,
  };
}

/** What a message's sender, its conversation and its inbox are, for the messages of one page. */
export interface SearchMessageRefs {
  displayIds: Map<number, number>;
  contacts: Map<number, ContactRow>;
  users: Map<number, MemberRef>;
  inboxes: Map<number, InboxRef>;
}

export function searchMessageOf(m: MessageRow, refs: SearchMessageRefs) {
  const inbox = refs.inboxes.get(m.inbox_id);
  const sender = senderOf(m, refs);
  return {
    id: m.id,
    content: m.content,
    message_type: m.message_type,
    content_type: m.content_type,
    source_id: m.source_id,
    inbox_id: m.inbox_id,
    conversation_id: refs.displayIds.get(m.conversation_id) ?? null,
    created_at: m.created_at,
    ...(sender ? { sender } : {}),
    inbox: inbox ? searchInboxOf(inbox) : {},
  };
}

/** Chatwoot's `sender.push_event_data`: a contact's or an agent's. */
function senderOf(m: MessageRow, refs: SearchMessageRefs) {
  if (m.sender_id === null) return null;
  if (m.sender_type === "Contact") {
    const c = refs.contacts.get(m.sender_id);
    return c ? contactPushData(c) : null;
  }
  if (m.sender_type === "User") {
    const u = refs.users.get(m.sender_id);
    return u ? userPushData(u.user, u.membership) : null;
  }
  return null;
}

export function searchConversationOf(row: ConversationRow, first: MessageRow | undefined, refs: SearchMessageRefs) {
  const contact = refs.contacts.get(row.contact_id);
  const inbox = refs.inboxes.get(row.inbox_id);
  const assignee = row.assignee_id === null ? undefined : refs.users.get(row.assignee_id);
  return {
    id: row.display_id,
    account_id: row.account_id,
    created_at: row.created_at,
    message: first ? searchMessageOf(first, refs) : {},
    contact: contact ? searchContactOf(contact) : {},
    inbox: inbox ? searchInboxOf(inbox) : {},
    agent: assignee ? searchAgentOf(assignee) : {},
    additional_attributes: attributes(row.additional_attributes),
  };
}

// Response schemas of contacts, conversations and messages. They whitelist output: a field the
// presenter returns but the schema does not list is stripped, so every field is declared here.
import { t } from "elysia";
import { PublicAttachment } from "./public-schemas.ts";
import { Agent, Attributes, Integer, Nullable } from "./schemas.ts";

export const InboxSlim = t.Object({
  id: Integer(),
  avatar_url: t.String(),
  channel_id: Integer(),
  name: t.String(),
  channel_type: t.String(),
  provider: Nullable(t.String()),
});

export const ContactInbox = t.Object({ source_id: t.String(), inbox: InboxSlim });

export const Contact = t.Object({
  additional_attributes: Attributes,
  availability_status: t.String(),
  email: Nullable(t.String()),
  id: Integer(),
  name: t.String(),
  phone_number: Nullable(t.String()),
  blocked: t.Boolean(),
  identifier: Nullable(t.String()),
  thumbnail: t.String(),
  custom_attributes: Attributes,
  last_activity_at: t.Optional(Integer({ description: "left out when the contact was never active" })),
  created_at: Integer(),
  contact_inboxes: t.Optional(t.Array(ContactInbox)),
});

export const ContactPage = t.Object({
  meta: t.Object({ count: Integer(), current_page: t.String() }),
  payload: t.Array(Contact),
});

export const Team = t.Object({
  id: Integer(),
  name: t.String(),
  description: Nullable(t.String()),
  allow_auto_assign: t.Boolean(),
  account_id: Integer(),
  is_member: t.Boolean(),
});

export const Message = t.Object({
  id: Integer(),
  content: Nullable(t.String()),
  account_id: Integer(),
  inbox_id: Integer(),
  conversation_id: Integer({ description: "the conversation's display id" }),
  message_type: Integer({ description: "0 incoming, 1 outgoing, 2 activity, 3 template" }),
  created_at: Integer(),
  updated_at: Integer(),
  private: t.Boolean(),
  status: t.String(),
  source_id: Nullable(t.String()),
  content_type: t.String(),
  content_attributes: Attributes,
  sender_type: Nullable(t.String()),
  sender_id: Nullable(Integer()),
  external_source_ids: Attributes,
  additional_attributes: Attributes,
  processed_message_content: Nullable(t.String()),
  sentiment: Attributes,
  conversation: t.Object({
    assignee_id: Nullable(Integer()),
    unread_count: Integer(),
    last_activity_at: Integer(),
    contact_inbox: t.Object({ source_id: t.String() }),
  }),
  echo_id: t.Optional(t.String()),
  sender: t.Optional(Attributes),
  attachments: t.Optional(t.Array(PublicAttachment)),
});

export const Conversation = t.Object({
  meta: t.Object({
    sender: Contact,
    channel: t.String(),
    assignee: t.Optional(Agent),
    assignee_type: t.Optional(t.String()),
    team: t.Optional(Team),
    hmac_verified: t.Boolean(),
  }),
  id: Integer({ description: "the per-account display id" }),
  messages: t.Array(Message),
  account_id: Integer(),
  uuid: t.String(),
  inbox_id: Integer(),
  additional_attributes: Attributes,
  custom_attributes: Attributes,
  agent_last_seen_at: Integer(),
  assignee_last_seen_at: Integer(),
  contact_last_seen_at: Integer(),
  can_reply: t.Boolean(),
  labels: t.Array(t.String()),
  muted: t.Boolean(),
  snoozed_until: Nullable(t.String()),
  status: t.String(),
  created_at: Integer(),
  updated_at: t.Number(),
  timestamp: Integer(),
  last_activity_at: Integer(),
  first_reply_created_at: Integer(),
  waiting_since: Integer(),
  unread_count: Integer(),
  last_non_activity_message: Nullable(Message),
  priority: Nullable(t.String()),
  sla_policy_id: Nullable(Integer()),
});

export const Counts = t.Object({
  mine_count: Integer(),
  assigned_count: Integer(),
  unassigned_count: Integer(),
  all_count: Integer(),
});

export const Labels = t.Object({ payload: t.Array(t.String()) });

/** Query of contact list and search. Loose types: the service validates with per-field messages. */
export const ContactQuery = t.Object({
  q: t.Optional(t.String()),
  sort: t.Optional(t.String()),
  page: t.Optional(t.String()),
  labels: t.Optional(t.Union([t.Array(t.String()), t.String()])),
  include_contact_inboxes: t.Optional(t.String()),
});

export const IdParams = t.Object({ account_id: t.String(), id: t.String() });
export const ConversationParams = t.Object({ account_id: t.String(), conversation_id: t.String() });
export const MessageParams = t.Object({ account_id: t.String(), conversation_id: t.String(), message_id: t.String() });

/** A route answering 200 with an empty body, as Chatwoot's `head :ok`. */
export function emptyOk(): Response {
  return new Response(null, { status: 200 });
}

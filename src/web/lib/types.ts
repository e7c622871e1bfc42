// The parts of the account API's records the web app reads. The server sends more; these name
// only what the screens use (src/http/conversation-schemas.ts and siblings have the full shapes).

export type ConversationStatus = "open" | "resolved" | "pending" | "snoozed";
export type Priority = "low" | "medium" | "high" | "urgent";

export interface Agent {
  id: number;
  name: string;
  available_name: string;
  email: string;
  role: "administrator" | "agent";
  availability_status: string;
  auto_offline?: boolean;
  /** False while an invited agent has not chosen a password. */
  confirmed?: boolean;
}

export interface Team {
  id: number;
  name: string;
  description: string | null;
  allow_auto_assign: boolean;
  is_member: boolean;
}

export interface Inbox {
  id: number;
  name: string;
  channel_type: string;
  inbox_identifier?: string | null;
  webhook_url?: string | null;
  webhook_secret?: string | null;
  greeting_enabled?: boolean;
  greeting_message?: string | null;
  csat_survey_enabled?: boolean;
  enable_auto_assignment?: boolean;
  /** Website inboxes (Channel::WebWidget): the chat's settings, see components/settings/WidgetSettingsForm.tsx. */
  website_url?: string | null;
  website_token?: string | null;
  widget_color?: string | null;
  welcome_title?: string | null;
  welcome_tagline?: string | null;
  reply_time?: string | null;
  pre_chat_form_enabled?: boolean;
  pre_chat_form_options?: { pre_chat_message?: string; pre_chat_fields?: PreChatField[] };
  allowed_origins?: string[];
  hmac_mandatory?: boolean | null;
  hmac_token?: string | null;
  out_of_office_message?: string | null;
  /** Email inboxes (Channel::Email); the mail settings only for administrators, see components/settings/EmailServerSettings.tsx. */
  email?: string | null;
  business_name?: string | null;
  imap_enabled?: boolean;
  imap_address?: string | null;
  imap_port?: number;
  imap_login?: string | null;
  imap_password_set?: boolean;
  imap_enable_ssl?: boolean;
  imap_folder?: string;
  smtp_enabled?: boolean;
  smtp_address?: string | null;
  smtp_port?: number;
  smtp_login?: string | null;
  smtp_password_set?: boolean;
  smtp_enable_ssl_tls?: boolean;
  smtp_enable_starttls_auto?: boolean;
  reply_plus_addressing?: boolean;
  last_synced_at?: number | null;
  last_error?: string | null;
}

export interface PreChatField {
  name: string;
  label: string;
  type: string;
  field_type: string;
  required: boolean;
  enabled: boolean;
  placeholder?: string;
  values?: string[];
}

export interface ContactInbox {
  source_id: string;
  inbox: { id: number; name: string; channel_type: string };
}

export interface Contact {
  id: number;
  name: string;
  email: string | null;
  phone_number: string | null;
  identifier: string | null;
  blocked: boolean;
  additional_attributes: Record<string, unknown>;
  custom_attributes: Record<string, unknown>;
  last_activity_at?: number;
  created_at: number;
  contact_inboxes?: ContactInbox[];
}

export interface Attachment {
  id: number;
  file_type: string;
  data_url: string | null;
  thumb_url?: string;
  file_size?: number;
  extension?: string | null;
  fallback_title?: string | null;
}

export interface Message {
  id: number;
  content: string | null;
  conversation_id: number;
  /** 0 incoming, 1 outgoing, 2 activity, 3 template */
  message_type: number;
  created_at: number;
  private: boolean;
  status: string;
  content_type: string;
  content_attributes: Record<string, unknown>;
  sender_type: string | null;
  sender?: { id: number; name: string; available_name?: string; type?: string };
  attachments?: Attachment[];
}

export interface Conversation {
  id: number;
  inbox_id: number;
  status: ConversationStatus;
  priority: Priority | null;
  snoozed_until: string | null;
  labels: string[];
  unread_count: number;
  last_activity_at: number;
  created_at: number;
  /** Since when the contact has waited for a reply (Unix seconds); 0 when nobody is waiting. */
  waiting_since: number;
  muted: boolean;
  meta: {
    sender: Contact;
    channel: string;
    assignee?: Agent;
    team?: Team;
  };
  messages: Message[];
  last_non_activity_message: Message | null;
}

export interface Counts {
  mine_count: number;
  assigned_count: number;
  unassigned_count: number;
  all_count: number;
}

export interface ConversationPage {
  data: { meta: Counts; payload: Conversation[] };
}

export interface MessagePage {
  meta: { labels: string[]; assignee?: Agent };
  payload: Message[];
}

export interface Webhook {
  id: number;
  name: string | null;
  url: string;
  subscriptions: string[];
  inbox_id: number | null;
  inbox?: { id: number; name: string };
  disabled_reason: string | null;
  secret?: string;
}

export interface Delivery {
  id: string;
  event: string;
  event_id: number;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  max_attempts: number;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  next_attempt_at: number | null;
  created_at: number;
  updated_at: number;
}

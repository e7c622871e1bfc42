// The chat page's calls to /api/v1/widget/* (same origin): website_token in the query, the
// visitor's token in X-Auth-Token. Errors carry the server's message for the screen and the SDK.

export interface PreChatField {
  name: string;
  label: string;
  type: string;
  field_type: "standard" | "contact_attribute" | "conversation_attribute";
  required: boolean;
  enabled: boolean;
  placeholder?: string;
  values?: string[];
}

export interface ChannelConfig {
  website_token: string;
  website_name: string;
  widget_color: string;
  welcome_title: string | null;
  welcome_tagline: string | null;
  reply_time: string;
  greeting_enabled: boolean;
  greeting_message: string | null;
  out_of_office_message: string | null;
  pre_chat_form_enabled: boolean;
  pre_chat_form_options: { pre_chat_message: string; pre_chat_fields: PreChatField[] };
  csat_survey_enabled: boolean;
  enable_email_collect: boolean;
  account_id: number;
  available: boolean;
  next_open_at: number | null;
}

export interface Contact {
  id: number;
  name: string;
  email: string | null;
  pubsub_token: string;
}

export interface Message {
  id: number;
  content: string | null;
  message_type: number;
  content_type: string;
  content_attributes: Record<string, any>;
  created_at: number;
  conversation_id: number;
  sender?: { name?: string; type?: string; available_name?: string };
  echo_id?: string;
  attachments?: {
    id: number;
    file_type: string;
    data_url: string;
    thumb_url?: string;
    file_size?: number;
    extension?: string | null;
  }[];
  /** sent, delivered, read, failed: the visitor's last message says "Sent" or "Read". */
  status?: string;
}

export interface ConversationSummary {
  id?: number;
  status?: string;
  contact_last_seen_at?: number;
}

/** An entry of GET /conversations/list. */
export interface ListedConversation {
  id: number;
  status: string;
  last_activity_at: number;
  unread_count: number;
  last_message: Message | null;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The inbox's public settings, embedded in the page by the server. */
export function readConfig(): ChannelConfig {
  return JSON.parse(document.getElementById("parley-config")!.textContent!) as ChannelConfig;
}

export class WidgetApi {
  token: string | null = null;

  constructor(private readonly websiteToken: string) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.token) headers["x-auth-token"] = this.token;
    const form = body instanceof FormData; // a file: multipart, its boundary set by fetch
    if (body !== undefined && !form) headers["content-type"] = "application/json";
    const res = await fetch(`/api/v1/widget${path}?website_token=${encodeURIComponent(this.websiteToken)}`, {
      method,
      headers,
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    const text = await res.text();
    const data = text ? JSON.parse(text) : null;
    if (!res.ok) throw new ApiError(res.status, (data && (data.description || data.error)) || res.statusText);
    return data as T;
  }
}

// Wire shapes of an inbox: the API record (Chatwoot's inbox partial) and the push data carried by
// inbox_created / inbox_updated events (Chatwoot's inbox event-data presenter).
import type { InboxRow } from "../../db/inboxes.repo.ts";
import { isoFromSeconds } from "../../lib/clock.ts";
import { channelTypeName } from "../channels.ts";
import type { PreChatFormOptions } from "../widget-settings.ts";
import { DEFAULT_PRE_CHAT_OPTIONS } from "../widget-settings.ts";
import type { WorkingHoursEntry } from "../working-hours.ts";

/** Type-specific channel settings kept in inboxes.channel_attributes. */
export interface ChannelAttributes {
  additional_attributes?: Record<string, unknown>;
  website_url?: string | null;
  website_token?: string;
  widget_color?: string | null;
  welcome_title?: string | null;
  welcome_tagline?: string | null;
  reply_time?: string | null;
  email?: string | null;
  forward_to_email?: string | null;
  phone_number?: string | null;
  provider?: string | null;
  pre_chat_form_enabled?: boolean;
  pre_chat_form_options?: PreChatFormOptions;
  allowed_origins?: string[];
}

export function channelAttributes(row: InboxRow): ChannelAttributes {
  return JSON.parse(row.channel_attributes) as ChannelAttributes;
}

const bool = (v: number) => v === 1;
const json = <T>(text: string) => JSON.parse(text) as T;

/** hmac_token is shown to administrators only, as in Chatwoot: it lets a caller vouch for contacts. */
export function inboxOf(row: InboxRow, opts: { administrator: boolean }) {
  const c = channelAttributes(row);
  const widget = row.channel_type === "web_widget";
  const hasHmac = widget || row.channel_type === "api";
  return {
    id: row.id,
    avatar_url: "",
    // Parley keeps the channel on the inbox row: the channel id is the inbox id.
    channel_id: row.id,
    name: row.name,
    channel_type: channelTypeName(row.channel_type),
    greeting_enabled: bool(row.greeting_enabled),
    greeting_message: row.greeting_message,
    working_hours_enabled: bool(row.working_hours_enabled),
    enable_email_collect: bool(row.enable_email_collect),
    csat_survey_enabled: bool(row.csat_survey_enabled),
    csat_config: json<Record<string, unknown>>(row.csat_config),
    enable_auto_assignment: bool(row.enable_auto_assignment),
    auto_assignment_config: json<Record<string, unknown>>(row.auto_assignment_config),
    out_of_office_message: row.out_of_office_message,
    working_hours: json<WorkingHoursEntry[]>(row.working_hours),
    timezone: row.timezone,
    callback_webhook_url: null,
    allow_messages_after_resolved: bool(row.allow_messages_after_resolved),
    lock_to_single_conversation: bool(row.lock_to_single_conversation),
    sender_name_type: row.sender_name_type,
    business_name: row.business_name,
    // Website keys: Chatwoot renders them for every inbox, null where they do not apply.
    widget_color: widget ? (c.widget_color ?? null) : null,
    website_url: widget ? (c.website_url ?? null) : null,
    hmac_mandatory: hasHmac ? bool(row.hmac_mandatory) : null,
    welcome_title: widget ? (c.welcome_title ?? null) : null,
    welcome_tagline: widget ? (c.welcome_tagline ?? null) : null,
    web_widget_script: null,
    website_token: widget ? (c.website_token ?? null) : null,
    selected_feature_flags: null,
    reply_time: widget ? (c.reply_time ?? null) : null,
    ...(widget
      ? {
          pre_chat_form_enabled: c.pre_chat_form_enabled ?? false,
          pre_chat_form_options: c.pre_chat_form_options ?? DEFAULT_PRE_CHAT_OPTIONS,
          allowed_origins: c.allowed_origins ?? [],
        }
      : {}),
    ...(hasHmac && opts.administrator ? { hmac_token: row.hmac_token } : {}),
    messaging_service_sid: null,
    phone_number: row.channel_type === "phone" ? (c.phone_number ?? null) : null,
    ...(row.channel_type === "email" ? { email: c.email ?? null, forward_to_email: c.forward_to_email ?? null } : {}),
    ...(row.channel_type === "api"
      ? {
          webhook_url: row.webhook_url,
          inbox_identifier: row.identifier,
          additional_attributes: c.additional_attributes ?? {},
          // Signs callbacks to webhook_url (X-Chatwoot-Signature); a secret, so administrators only.
          ...(opts.administrator ? { webhook_secret: row.webhook_secret } : {}),
        }
      : {}),
    provider: c.provider ?? null,
  };
}

/** The channel as events show it. Secrets (hmac_token) stay out: webhooks leave the building. */
function channelPushData(row: InboxRow) {
  const c = channelAttributes(row);
  const base = { id: row.id, type: channelTypeName(row.channel_type) };
  switch (row.channel_type) {
    case "api":
      return {
        ...base,
        identifier: row.identifier,
        webhook_url: row.webhook_url,
        hmac_mandatory: bool(row.hmac_mandatory),
        additional_attributes: c.additional_attributes ?? {},
      };
    case "web_widget":
      return {
        ...base,
        website_url: c.website_url ?? null,
        website_token: c.website_token ?? null,
        widget_color: c.widget_color ?? null,
        welcome_title: c.welcome_title ?? null,
        welcome_tagline: c.welcome_tagline ?? null,
        reply_time: c.reply_time ?? null,
        hmac_mandatory: bool(row.hmac_mandatory),
        pre_chat_form_enabled: c.pre_chat_form_enabled ?? false,
        pre_chat_form_options: c.pre_chat_form_options ?? DEFAULT_PRE_CHAT_OPTIONS,
        allowed_origins: c.allowed_origins ?? [],
      };
    case "email":
      return {
        ...base,
        email: c.email ?? null,
        forward_to_email: c.forward_to_email ?? null,
        provider: c.provider ?? null,
      };
    case "phone":
      return { ...base, phone_number: c.phone_number ?? null, provider: c.provider ?? null };
  }
}

/**
 * Chatwoot's inbox push data (Inbox::EventDataPresenter), plus `id`, `account_id`, `name` and
 * `channel_type`, which Chatwoot leaves out and a receiver needs to know which inbox changed, and
 * `csat_config`, so that every setting an update can change shows in changed_attributes.
 * Timestamps are ISO 8601, as Rails serialises the raw times there.
 */
export function inboxPushData(row: InboxRow) {
  return {
    id: row.id,
    account_id: row.account_id,
    name: row.name,
    channel_type: channelTypeName(row.channel_type),
    allow_messages_after_resolved: bool(row.allow_messages_after_resolved),
    lock_to_single_conversation: bool(row.lock_to_single_conversation),
    auto_assignment_config: json<Record<string, unknown>>(row.auto_assignment_config),
    enable_auto_assignment: bool(row.enable_auto_assignment),
    enable_email_collect: bool(row.enable_email_collect),
    greeting_enabled: bool(row.greeting_enabled),
    greeting_message: row.greeting_message,
    csat_survey_enabled: bool(row.csat_survey_enabled),
    csat_config: json<Record<string, unknown>>(row.csat_config),
    business_name: row.business_name,
    sender_name_type: row.sender_name_type,
    timezone: row.timezone,
    out_of_office_message: row.out_of_office_message,
    working_hours_enabled: bool(row.working_hours_enabled),
    working_hours: json<WorkingHoursEntry[]>(row.working_hours),
    created_at: isoFromSeconds(row.created_at),
    updated_at: isoFromSeconds(row.updated_at),
    channel: channelPushData(row),
  };
}

type Change = Record<string, { previous_value: unknown; current_value: unknown }>;

/**
 * Chatwoot's changed_attributes: one single-key object per attribute that changed, including
 * updated_at. Channel settings count as attributes of the inbox (a new webhook_url is a change).
 */
export function changedAttributes(before: InboxRow, after: InboxRow): Change[] {
  const a = flatten(inboxPushData(before));
  const b = flatten(inboxPushData(after));
  const changes: Change[] = [];
  for (const key of Object.keys(b)) {
    if (key === "updated_at") continue;
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key]))
      changes.push({ [key]: { previous_value: a[key] ?? null, current_value: b[key] } });
  }
  if (changes.length) changes.push({ updated_at: { previous_value: a.updated_at, current_value: b.updated_at } });
  return changes;
}

function flatten(data: ReturnType<typeof inboxPushData>): Record<string, unknown> {
  const { channel, ...rest } = data;
  const { id: _id, type: _type, ...channelFields } = channel;
  return { ...rest, ...channelFields };
}

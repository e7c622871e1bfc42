// Wire shapes of the website chat (Chatwoot's api/v1/widget views): the inbox's public settings
// (website_channel_config), the visitor's own contact. Nothing here is agent-only: no hmac_token,
// no agent emails, no allowed origins.
import type { ContactInboxRow } from "../../db/contact-inboxes.repo.ts";
import type { ContactRow } from "../../db/contacts.repo.ts";
import type { PublicInboxRow } from "../../db/public.repo.ts";
import type { Availability } from "../widget.service.ts";
import { DEFAULT_PRE_CHAT_OPTIONS } from "../widget-settings.ts";
import type { WorkingHoursEntry } from "../working-hours.ts";
import { attributes } from "./contact.presenter.ts";
import { channelAttributes } from "./inbox.presenter.ts";

/** Chatwoot's website_channel_config, plus Parley's `available` and `next_open_at` (the away notice needs no client-side calendar). */
export function widgetChannelConfig(inbox: PublicInboxRow, availability: Availability) {
  const c = channelAttributes(inbox);
  return {
    website_token: c.website_token ?? "",
    website_name: inbox.name,
    widget_color: c.widget_color ?? "#1f93ff",
    welcome_title: c.welcome_title ?? null,
    welcome_tagline: c.welcome_tagline ?? null,
    reply_time: c.reply_time ?? "in_a_few_minutes",
    greeting_enabled: inbox.greeting_enabled === 1,
    greeting_message: inbox.greeting_message,
    out_of_office_message: inbox.out_of_office_message,
    pre_chat_form_enabled: c.pre_chat_form_enabled ?? false,
    pre_chat_form_options: c.pre_chat_form_options ?? DEFAULT_PRE_CHAT_OPTIONS,
    csat_survey_enabled: inbox.csat_survey_enabled === 1,
    allow_messages_after_resolved: inbox.allow_messages_after_resolved === 1,
    enable_email_collect: inbox.enable_email_collect === 1,
    hmac_mandatory: inbox.hmac_mandatory === 1,
    timezone: inbox.timezone,
    working_hours_enabled: inbox.working_hours_enabled === 1,
    working_hours: JSON.parse(inbox.working_hours) as WorkingHoursEntry[],
    account_id: inbox.account_id,
    available: availability.open,
    next_open_at: availability.next_open_at,
  };
}

/** The visitor's contact as the widget sees it (config, show, update). */
export function widgetContactOf(ci: ContactInboxRow, c: ContactRow) {
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone_number: c.phone_number,
    identifier: c.identifier,
    pubsub_token: ci.pubsub_token,
    custom_attributes: attributes(c.custom_attributes),
  };
}

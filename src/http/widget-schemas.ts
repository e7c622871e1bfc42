// Schemas of the website chat API (Chatwoot's /api/v1/widget views).
import { t } from "elysia";
import { WorkingHoursEntry } from "./inboxes.routes.ts";
import { PublicContactBody, PublicConversation, PublicMessage } from "./public-schemas.ts";
import { ContactFieldDocs, EchoId, MessageContent } from "./field-docs.ts";
import { AttributeKeys, Attributes, Checked, Documented, Integer, Nullable } from "./schemas.ts";

export const WebsiteTokenQuery = t.Object({
  website_token: t.String({ description: "the web_widget inbox's website_token" }),
});
export const WebsiteTokenBefore = t.Object({ website_token: t.String(), before: t.Optional(t.String()) });

export const WidgetChannelConfig = t.Object({
  website_token: t.String(),
  website_name: t.String(),
  widget_color: t.String(),
  welcome_title: Nullable(t.String()),
  welcome_tagline: Nullable(t.String()),
  reply_time: t.String(),
  greeting_enabled: t.Boolean(),
  greeting_message: Nullable(t.String()),
  out_of_office_message: Nullable(t.String()),
  pre_chat_form_enabled: t.Boolean(),
  pre_chat_form_options: Attributes,
  csat_survey_enabled: t.Boolean(),
  allow_messages_after_resolved: t.Boolean(),
  enable_email_collect: t.Boolean(),
  hmac_mandatory: t.Boolean(),
  timezone: t.String(),
  working_hours_enabled: t.Boolean(),
  working_hours: t.Array(WorkingHoursEntry),
  account_id: Integer(),
  available: t.Boolean({ description: "inside business hours now (always, without business hours)" }),
  next_open_at: Nullable(Integer({ description: "when closed: the next opening, Unix seconds" })),
});

export const WidgetContact = t.Object({
  id: Integer(),
  name: t.String(),
  email: Nullable(t.String()),
  phone_number: Nullable(t.String()),
  identifier: Nullable(t.String()),
  pubsub_token: t.String(),
  custom_attributes: Attributes,
});

export const WidgetConfig = t.Object({
  website_channel_config: WidgetChannelConfig,
  contact: WidgetContact,
  auth_token: t.String({ description: "the visitor's X-Auth-Token (the one sent, or a new visitor's)" }),
});

export const SetUserResult = t.Object({
  id: Integer(),
  name: t.String(),
  email: Nullable(t.String()),
  phone_number: Nullable(t.String()),
  pubsub_token: t.String(),
  widget_auth_token: t.Optional(
    t.String({ description: "present when setUser switched to another contact: the new X-Auth-Token" }),
  ),
});

export const WidgetConversationSummary = t.Object({
  id: t.Optional(Integer()),
  inbox_id: t.Optional(Integer()),
  status: t.Optional(t.String()),
  contact_last_seen_at: t.Optional(Integer({ description: "agents' messages created after it are unread" })),
});

/** The conversation with its newest messages: the public API's record. */
export const WidgetConversation = PublicConversation;

/** The contact fields the widget sends (the public API's body: loose types, checked in the service). */
export const WidgetConversationList = t.Object({
  payload: t.Array(
    t.Object({
      id: Integer(),
      inbox_id: Integer(),
      status: t.String(),
      contact_last_seen_at: Integer(),
      last_activity_at: Integer(),
      unread_count: Integer(),
      last_message: Nullable(PublicMessage),
    }),
  ),
  meta: t.Object({
    has_next_page: t.Boolean(),
    unread_count: Integer({ description: "conversations with unread messages (on this page)" }),
  }),
});

export const WidgetContactBody = PublicContactBody;

export const WidgetStartBody = t.Object({
  contact: t.Optional(
    Checked(
      t.Object(
        {
          name: ContactFieldDocs.name,
          email: ContactFieldDocs.email,
          phone_number: ContactFieldDocs.phone_number,
          custom_attributes: t.Optional(Attributes),
        },
        { description: "updates the visitor's contact first" },
      ),
    ),
  ),
  message: t.Optional(
    Checked(t.Object({ content: MessageContent, echo_id: EchoId }, { description: "the first message (required)" })),
  ),
  custom_attributes: t.Optional(Checked(Attributes)),
});

/** Keys to remove; Chatwoot's conversation endpoint names them `custom_attribute`, the contact's `custom_attributes`: both are read. */
export const KeysBody = t.Object({
  custom_attributes: t.Optional(Checked(AttributeKeys)),
  custom_attribute: t.Optional(Checked(AttributeKeys)),
});

/** set_custom_attributes reads the same body as a map to merge. */
export const SetAttributesBody = Documented(
  KeysBody,
  t.Object({ custom_attributes: Attributes }, { description: "merged into the conversation's custom attributes" }),
);

/** A message as the chat reads it: the public message plus its delivery status ("Sent", "Read"). */
export const WidgetMessage = t.Object({
  ...PublicMessage.properties,
  status: t.String({ description: "sent, delivered, read or failed" }),
});

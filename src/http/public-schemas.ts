// Schemas of the public (client) API: parameters, bodies and the records it answers with (spec's
// public Message, Attachment and Sender tables; Chatwoot's public inbox, contact and conversation).
import { t } from "elysia";
import { WorkingHoursEntry } from "./inboxes.routes.ts";
import { ContactFieldDocs, IdentifierHash, SubmittedValues } from "./field-docs.ts";
import { Attributes, Checked, Integer, Nullable, Text } from "./schemas.ts";

export const InboxIdentifierParams = t.Object({
  inbox_identifier: t.String({ description: "the API inbox's inbox_identifier" }),
});
export const ContactIdentifierParams = t.Object({
  inbox_identifier: t.String(),
  contact_identifier: t.String({ description: "the source_id returned when the contact was created" }),
});
export const PublicConversationParams = t.Object({
  inbox_identifier: t.String(),
  contact_identifier: t.String(),
  conversation_id: t.String(),
});
export const PublicMessageParams = t.Object({
  inbox_identifier: t.String(),
  contact_identifier: t.String(),
  conversation_id: t.String(),
  message_id: t.String(),
});

export const PublicInbox = t.Object({
  identifier: t.String(),
  identity_validation_enabled: t.Boolean({
    description: "the inbox's hmac_mandatory: contacts with an identifier need its identifier_hash",
  }),
  name: t.String(),
  timezone: t.String(),
  working_hours: t.Array(WorkingHoursEntry),
  working_hours_enabled: t.Boolean(),
  csat_survey_enabled: t.Boolean(),
  greeting_enabled: t.Boolean(),
});

export const PublicContact = t.Object({
  source_id: t.String({ description: "the contact_identifier of the other public routes" }),
  pubsub_token: t.String(),
  id: Integer(),
  name: t.String(),
  email: Nullable(t.String()),
  phone_number: Nullable(t.String()),
});

/** The spec's Attachment (public API): the fields vary with file_type. */
export const PublicAttachment = t.Object({
  id: Integer(),
  message_id: Integer(),
  file_type: t.String(),
  account_id: Integer(),
  extension: t.Optional(Nullable(t.String())),
  data_url: t.Optional(Nullable(t.String())),
  thumb_url: t.Optional(t.String()),
  file_size: t.Optional(Integer()),
  width: t.Optional(Nullable(Integer())),
  height: t.Optional(Nullable(Integer())),
  coordinates_lat: t.Optional(t.Number()),
  coordinates_long: t.Optional(t.Number()),
  fallback_title: t.Optional(Nullable(t.String())),
  meta: t.Optional(Attributes),
  transcribed_text: t.Optional(t.String()),
});

export const PublicMessage = t.Object({
  id: Integer(),
  content: Nullable(t.String()),
  message_type: Integer({ description: "0 incoming, 1 outgoing, 3 template (activity messages are never shown)" }),
  content_type: t.String(),
  content_attributes: Attributes,
  created_at: Integer(),
  conversation_id: Integer({ description: "the conversation's display id" }),
  attachments: t.Optional(t.Array(PublicAttachment)),
  sender: t.Optional(Attributes),
});

export const PublicContactRecord = t.Object({
  id: Integer(),
  name: t.String(),
  email: Nullable(t.String()),
  phone_number: Nullable(t.String()),
  identifier: Nullable(t.String()),
  blocked: t.Boolean(),
  additional_attributes: Attributes,
  custom_attributes: Attributes,
  account_id: Integer(),
  last_activity_at: Nullable(t.String()),
  created_at: t.String(),
  updated_at: t.String(),
});

export const PublicConversation = t.Object({
  id: Integer({ description: "the per-account display id" }),
  uuid: t.String(),
  inbox_id: Integer(),
  contact_last_seen_at: Integer(),
  status: t.String(),
  agent_last_seen_at: Integer(),
  messages: t.Array(PublicMessage, { description: "the newest 20 the contact may see, oldest first" }),
  contact: PublicContactRecord,
});

/** Contact create/update: unchecked here, checked in the service with per-field messages. */
export const PublicContactBody = t.Object({
  source_id: t.Optional(Checked(Text(255, "the contact's id in the inbox; generated when absent"))),
  ...ContactFieldDocs,
  identifier_hash: IdentifierHash,
  custom_attributes: t.Optional(Attributes),
});

/** The spec's Message update payload: submitted_values, an object or an array of objects. */
export const SubmittedValuesBody = t.Object({ submitted_values: SubmittedValues });

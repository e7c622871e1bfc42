// Published shapes of body fields the services check themselves (see Checked in schemas.ts), shared
// by the account API, the public API and the website chat.
import { t } from "elysia";
import { CONTENT_TYPES, MAX_CONTENT } from "../domain/message-input.ts";
import { MAX_ITEMS, MAX_VALUE_LENGTH } from "../domain/submitted-values.ts";
import { Attributes, Checked, Nullable, PlainInteger, Text } from "./schemas.ts";

/** A contact's own fields, as contact-input.ts accepts them. */
export const ContactFieldDocs = {
  name: t.Optional(Checked(Text(255))),
  email: t.Optional(Checked(Nullable(t.String({ format: "email", maxLength: 254 })))),
  phone_number: t.Optional(Checked(Nullable(t.String({ description: "E.164, e.g. +15551234567" })))),
  identifier: t.Optional(Checked(Text(255, "the contact's id in your system"))),
  avatar_url: t.Optional(Checked(Text(2048, "URL of an image to fetch as the avatar"))),
};

/** Identity verification: hex HMAC-SHA256 of the identifier, keyed by the inbox's hmac_token. */
export const IdentifierHash = t.Optional(
  Checked(Nullable(t.String({ description: "hex HMAC-SHA256 of identifier with the inbox's hmac_token" }))),
);

export const TypingStatus = t.Optional(Checked(t.String({ enum: ["on", "off"] })));

/** A message's text, as message-input.ts accepts it. */
export const MessageContent = t.Optional(
  Checked(Nullable(t.String({ maxLength: MAX_CONTENT, description: "required without files" }))),
);

/** The client's id for a message, echoed back in its events (a number is taken as its text). */
export const EchoId = t.Optional(Checked(t.Union([t.String({ maxLength: 255 }), t.Number(), t.Null()])));

/** The website chat's quoted reply (Chatwoot's `message[reply_to]`): a message id of the conversation. */
export const ReplyTo = t.Optional(
  Checked(t.Union([PlainInteger({ minimum: 1 }), t.Null()], { description: "the id of the message replied to" })),
);

/** A message's fields (account API), as message-input.ts accepts them; files come apart. */
export const MessageFields = {
  content: MessageContent,
  message_type: t.Optional(
    Checked(
      t.Union([t.String({ enum: ["outgoing", "incoming"] }), PlainInteger({ enum: [1, 0] }), t.Null()], {
        description: "default outgoing; incoming only in API inboxes",
      }),
    ),
  ),
  private: t.Optional(t.Boolean()),
  content_type: t.Optional(Checked(Nullable(t.String({ enum: [...CONTENT_TYPES], default: "text" })))),
  content_attributes: t.Optional(Attributes),
  echo_id: EchoId,
  source_id: t.Optional(Checked(Text(255, "the message's id in the channel"))),
};

/** Uploaded files, as multipart parts named `part` (a message may have files and no content). */
export const attachmentsIn = (part: string) =>
  t.Optional(
    Checked(
      t.Array(t.String({ format: "binary" }), {
        description: `files: multipart/form-data parts named ${part} (a message may have files and no content)`,
      }),
    ),
  );

export const Attachments = attachmentsIn("attachments[]");

const Scalar = Nullable(t.Union([t.String({ maxLength: MAX_VALUE_LENGTH }), t.Number(), t.Boolean()]));
const SubmittedItem = t.Object(
  {
    name: t.Optional(Scalar),
    title: t.Optional(Scalar),
    value: t.Optional(Scalar),
    csat_survey_response: t.Optional(
      t.Object({
        rating: PlainInteger({ minimum: 1, maximum: 5 }),
        feedback_message: t.Optional(Nullable(t.String({ maxLength: MAX_VALUE_LENGTH }))),
      }),
    ),
  },
  { description: "other keys are dropped" },
);

/** The answer to a form, options or CSAT message: an object or an array of objects. */
export const SubmittedValues = t.Optional(
  Checked(t.Union([SubmittedItem, t.Array(SubmittedItem, { maxItems: MAX_ITEMS })])),
);

/** An agent's user id (a positive integer; its text is taken too). */
export const UserId = Checked(PlainInteger({ minimum: 1 }));

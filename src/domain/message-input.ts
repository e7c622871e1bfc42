// Validation of a new message (Chatwoot's MessageBuilder params and Message validations).
import type { InboxRef } from "../db/conversation-refs.repo.ts";
import { INCOMING, OUTGOING } from "../db/messages.repo.ts";
import { FieldErrors } from "./errors.ts";
import { REPLY_KEYS } from "./in-reply-to.ts";
import { optionalString } from "./validate.ts";

export const MAX_CONTENT = 150_000;

export const CONTENT_TYPES = [
  "text",
  "input_text",
  "input_textarea",
  "input_email",
  "input_select",
  "cards",
  "form",
  "article",
  "incoming_email",
  "input_csat",
  "integrations",
  "sticker",
  "voice_call",
] as const;

export interface MessageInput {
  content?: unknown;
  message_type?: unknown;
  private?: unknown;
  content_type?: unknown;
  content_attributes?: unknown;
  echo_id?: unknown;
  source_id?: unknown;
}

export interface CleanMessage {
  content: string | null;
  messageType: number;
  private: boolean;
  contentType: string;
  contentAttributes: Record<string, unknown>;
  echoId: string | null;
  sourceId: string | null;
}

function messageType(errors: FieldErrors, raw: unknown, inbox: InboxRef, byContact: boolean): number {
  if (raw === undefined || raw === null || raw === "") return OUTGOING;
  const type =
    raw === "incoming" || raw === 0 || raw === "0"
      ? INCOMING
      : raw === "outgoing" || raw === 1 || raw === "1"
        ? OUTGOING
        : null;
  if (type === null) {
    errors.add("message_type", "must be incoming or outgoing", "invalid");
    return OUTGOING;
  }
  // Chatwoot: only API inboxes take incoming messages through the account API (a contact writing
  // through the public API or the website chat is the incoming side of any inbox).
  if (type === INCOMING && inbox.channel_type !== "api" && !byContact)
    errors.add("message_type", "incoming messages are only allowed in API inboxes", "unsupported");
  return type;
}

/** Field-by-field checks; one 422 item per bad field. */
export function cleanMessage(input: MessageInput, inbox: InboxRef, byContact = false, hasFiles = false): CleanMessage {
  const errors = new FieldErrors();
  let content: string | null = null;
  if (input.content !== undefined && input.content !== null) {
    if (typeof input.content !== "string") errors.add("content", "must be a string", "invalid");
    else if (input.content.length > MAX_CONTENT)
      errors.add("content", `is too long (maximum is ${MAX_CONTENT} characters)`, "too_long");
    else content = input.content;
  }
  const type = messageType(errors, input.message_type, inbox, byContact);
  let isPrivate = false;
  if (input.private !== undefined && input.private !== null) {
    if (typeof input.private !== "boolean") errors.add("private", "must be true or false", "invalid");
    else isPrivate = input.private;
  }
  let contentType = "text";
  if (input.content_type !== undefined && input.content_type !== null && input.content_type !== "") {
    if (typeof input.content_type === "string" && (CONTENT_TYPES as readonly string[]).includes(input.content_type))
      contentType = input.content_type;
    else errors.add("content_type", `must be one of: ${CONTENT_TYPES.join(", ")}`, "invalid");
  }
  let attrs: Record<string, unknown> = {};
  if (input.content_attributes !== undefined && input.content_attributes !== null) {
    if (typeof input.content_attributes !== "object" || Array.isArray(input.content_attributes))
      errors.add("content_attributes", "must be an object", "invalid");
    else attrs = input.content_attributes as Record<string, unknown>;
  }
  // A file is a message by itself (a photo without a caption); a quoted message alone is not.
  const saysSomething = Object.keys(attrs).some((k) => !REPLY_KEYS.includes(k));
  if ((content === null || content.trim() === "") && !saysSomething && !hasFiles && errors.empty) {
    errors.add("content", "can't be blank", "required");
  }
  const echoId = optionalString(
    errors,
    "echo_id",
    typeof input.echo_id === "number" ? String(input.echo_id) : input.echo_id,
    255,
  );
  const sourceId = optionalString(errors, "source_id", input.source_id, 255);
  errors.throwIfAny();
  return {
    content,
    messageType: type,
    private: isPrivate,
    contentType,
    contentAttributes: attrs,
    echoId: echoId ?? null,
    sourceId: sourceId ?? null,
  };
}

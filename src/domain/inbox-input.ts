// Reads an inbox create/update body into the columns to store, with one error item per bad field.
// Chatwoot's parameter names: inbox flags at the top level, channel settings under `channel`.
// Settings that do not apply to the inbox's channel type are ignored, as Chatwoot ignores them.
import type { InboxFields, InboxRow } from "../db/inboxes.repo.ts";
import { randomToken } from "../lib/tokens.ts";
import { generateSecret } from "../lib/webhook-signature.ts";
import { parseChannelType, type ChannelType, CHANNEL_TYPES } from "./channels.ts";
import { AppError, FieldErrors } from "./errors.ts";
import type { ChannelAttributes } from "./presenters/inbox.presenter.ts";
import { emailValue, isE164, normalisePhone, oneOf, optionalString, requiredString } from "./validate.ts";
import { allowedOrigins, DEFAULT_PRE_CHAT_OPTIONS, preChatOptions } from "./widget-settings.ts";
import { DEFAULT_WORKING_HOURS, normaliseEntries, validateTimeZone } from "./working-hours.ts";

export type InboxInput = Record<string, unknown>;

const MESSAGE_MAX = 10_000;
const URL_MAX = 2048;
const REPLY_TIMES = ["in_a_few_minutes", "in_a_few_hours", "in_a_day"] as const;
const SENDER_NAME_TYPES = ["friendly", "professional"] as const;

const FLAGS = [
  "greeting_enabled",
  "working_hours_enabled",
  "csat_survey_enabled",
  "lock_to_single_conversation",
  "allow_messages_after_resolved",
  "enable_auto_assignment",
  "enable_email_collect",
] as const;

/** Runs a validator that throws its own ValidationError and folds its items into `errors`. */
function collect<T>(errors: FieldErrors, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 422) throw error;
    for (const e of error.errors) errors.add(e.field, e.message, e.code);
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function jsonObject(errors: FieldErrors, field: string, value: unknown, current: string): string {
  if (value === undefined) return current;
  if (!isObject(value)) {
    errors.add(field, "must be an object", "invalid");
    return current;
  }
  return JSON.stringify(value);
}

function httpUrl(errors: FieldErrors, field: string, value: unknown): string | null | undefined {
  const s = optionalString(errors, field, value, URL_MAX);
  if (!s) return s;
  let ok = false;
  try {
    const u = new URL(s);
    ok = (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    ok = false;
  }
  if (!ok) {
    errors.add(field, "must be an http or https URL", "invalid");
    return undefined;
  }
  return s;
}

/** The channel type a create asks for ("sms" is Chatwoot's name for the phone channel). */
function channelTypeOf(errors: FieldErrors, channel: Record<string, unknown>): ChannelType | undefined {
  const raw = channel.type;
  if (raw === undefined || raw === null || raw === "") {
    errors.add("channel.type", "can't be blank", "required");
    return undefined;
  }
  const type = parseChannelType(typeof raw === "string" && raw.trim().toLowerCase() === "sms" ? "phone" : raw);
  if (!type) errors.add("channel.type", `must be one of: ${CHANNEL_TYPES.join(", ")}`, "unsupported");
  return type ?? undefined;
}

/** Channel settings for this type, starting from the current ones. */
function channelFields(
  errors: FieldErrors,
  type: ChannelType,
  channel: Record<string, unknown>,
  current: { attrs: ChannelAttributes; webhook_url: string | null; hmac_mandatory: number },
  creating: boolean,
) {
  const attrs: ChannelAttributes = { ...current.attrs };
  let webhookUrl = current.webhook_url;
  let hmacMandatory = current.hmac_mandatory;
  const set = <K extends keyof ChannelAttributes>(key: K, value: ChannelAttributes[K] | undefined) => {
    if (value !== undefined) attrs[key] = value;
  };
  if (type === "api" || type === "web_widget") {
    const v = channel.hmac_mandatory;
    if (v !== undefined && typeof v !== "boolean")
      errors.add("channel.hmac_mandatory", "must be true or false", "invalid");
    else if (v !== undefined) hmacMandatory = v ? 1 : 0;
  }
  if (type === "api") {
    const url = httpUrl(errors, "channel.webhook_url", channel.webhook_url);
    if (url !== undefined) webhookUrl = url;
    if (channel.additional_attributes !== undefined) {
      if (isObject(channel.additional_attributes)) attrs.additional_attributes = channel.additional_attributes;
      else errors.add("channel.additional_attributes", "must be an object", "invalid");
    }
  } else if (type === "web_widget") {
    const url = creating
      ? requiredString(errors, "channel.website_url", channel.website_url, URL_MAX)
      : optionalString(errors, "channel.website_url", channel.website_url, URL_MAX);
    if (url === null) errors.add("channel.website_url", "can't be blank", "required");
    else set("website_url", url);
    set("widget_color", optionalString(errors, "channel.widget_color", channel.widget_color, 32));
    set("welcome_title", optionalString(errors, "channel.welcome_title", channel.welcome_title));
    set("welcome_tagline", optionalString(errors, "channel.welcome_tagline", channel.welcome_tagline));
    if (channel.reply_time !== undefined)
      set("reply_time", oneOf(errors, "channel.reply_time", channel.reply_time, REPLY_TIMES));
    const preChat = channel.pre_chat_form_enabled;
    if (preChat !== undefined && typeof preChat !== "boolean")
      errors.add("channel.pre_chat_form_enabled", "must be true or false", "invalid");
    else set("pre_chat_form_enabled", preChat);
    set("pre_chat_form_options", preChatOptions(errors, channel.pre_chat_form_options));
    set("allowed_origins", allowedOrigins(errors, channel.allowed_origins));
    if (creating) {
      attrs.website_token = randomToken(24);
      attrs.widget_color ??= "#1f93ff";
      attrs.reply_time ??= "in_a_few_minutes";
      attrs.pre_chat_form_enabled ??= false;
      attrs.pre_chat_form_options ??= DEFAULT_PRE_CHAT_OPTIONS;
      attrs.allowed_origins ??= [];
    }
  } else if (type === "email") {
    if (creating || channel.email !== undefined)
      set("email", emailValue(errors, "channel.email", channel.email, true) ?? undefined);
    set("provider", optionalString(errors, "channel.provider", channel.provider, 64));
  } else if (type === "phone") {
    if (creating || channel.phone_number !== undefined) {
      const typed = requiredString(errors, "channel.phone_number", channel.phone_number, 32);
      const phone = typed === undefined ? undefined : normalisePhone(typed);
      if (phone !== undefined && !isE164(phone))
        errors.add("channel.phone_number", "must be in E.164 format, e.g. +14155550100", "invalid");
      else set("phone_number", phone);
    }
    set("provider", optionalString(errors, "channel.provider", channel.provider, 64));
  }
  return {
    channel_attributes: JSON.stringify(attrs),
    webhook_url: type === "api" ? webhookUrl : null,
    hmac_mandatory: hmacMandatory,
  };
}

/**
 * Validates a create (current = null) or an update (current = the stored row) and returns every
 * column to store. Throws ValidationError listing all bad fields.
 */
export function inboxFields(input: InboxInput, current: InboxRow | null): InboxFields {
  const errors = new FieldErrors();
  const creating = current === null;
  const channel = input.channel === undefined ? {} : input.channel;
  if (!isObject(channel)) errors.add("channel", "must be an object", "invalid");
  const ch = isObject(channel) ? channel : {};
  if (creating && input.channel === undefined) errors.add("channel.type", "can't be blank", "required");

  let type: ChannelType | undefined = current?.channel_type;
  if (creating && input.channel !== undefined && isObject(channel)) type = channelTypeOf(errors, ch);
  else if (!creating && ch.type !== undefined) {
    const asked = channelTypeOf(errors, ch);
    if (asked && asked !== current!.channel_type)
      errors.add("channel.type", "cannot be changed; create a new inbox instead", "invalid");
  }

  const name = creating || input.name !== undefined ? requiredString(errors, "name", input.name) : current!.name;
  const flags = {} as Record<(typeof FLAGS)[number], number>;
  for (const flag of FLAGS) {
    const v = input[flag];
    if (v !== undefined && typeof v !== "boolean") errors.add(flag, "must be true or false", "invalid");
    flags[flag] =
      typeof v === "boolean"
        ? v
          ? 1
          : 0
        : current
          ? current[flag]
          : flag.startsWith("allow") || flag.startsWith("enable")
            ? 1
            : 0;
  }
  const text = (field: "greeting_message" | "out_of_office_message" | "business_name", max: number) => {
    const v = optionalString(errors, field, input[field], max);
    return v === undefined ? (current?.[field] ?? null) : v;
  };
  const timezone =
    input.timezone === undefined
      ? (current?.timezone ?? "UTC")
      : collect(errors, () => validateTimeZone(input.timezone));
  const hours =
    input.working_hours === undefined
      ? (current?.working_hours ?? JSON.stringify(DEFAULT_WORKING_HOURS))
      : JSON.stringify(collect(errors, () => normaliseEntries(input.working_hours)) ?? []);
  const senderNameType =
    input.sender_name_type === undefined
      ? (current?.sender_name_type ?? "friendly")
      : oneOf(errors, "sender_name_type", input.sender_name_type, SENDER_NAME_TYPES);

  const chan = type
    ? channelFields(
        errors,
        type,
        ch,
        current
          ? {
              attrs: JSON.parse(current.channel_attributes) as ChannelAttributes,
              webhook_url: current.webhook_url,
              hmac_mandatory: current.hmac_mandatory,
            }
          : { attrs: {}, webhook_url: null, hmac_mandatory: 0 },
        creating,
      )
    : null;
  const greeting = text("greeting_message", MESSAGE_MAX);
  const outOfOffice = text("out_of_office_message", MESSAGE_MAX);
  const businessName = text("business_name", 255);
  const csatConfig = jsonObject(errors, "csat_config", input.csat_config, current?.csat_config ?? "{}");
  const autoAssignmentConfig = jsonObject(
    errors,
    "auto_assignment_config",
    input.auto_assignment_config,
    current?.auto_assignment_config ?? "{}",
  );
  errors.throwIfAny();

  const secrets = current
    ? { identifier: current.identifier, hmac_token: current.hmac_token, webhook_secret: current.webhook_secret }
    : {
        identifier: type === "api" ? randomToken(24) : null,
        hmac_token: type === "api" || type === "web_widget" ? randomToken(24) : null,
        // Created with the inbox so administrators can set up verification before the first callback.
        webhook_secret: type === "api" ? generateSecret() : null,
      };
  return {
    name: name!,
    channel_type: type!,
    ...secrets,
    ...chan!,
    greeting_message: greeting,
    out_of_office_message: outOfOffice,
    business_name: businessName,
    ...flags,
    working_hours: hours,
    timezone: timezone!,
    csat_config: csatConfig,
    auto_assignment_config: autoAssignmentConfig,
    sender_name_type: senderNameType!,
  };
}

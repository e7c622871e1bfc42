// The website chat's own settings on a web_widget inbox (kept in channel_attributes, Chatwoot's
// parameter names under `channel`): the pre-chat form and the origins allowed to embed the chat.
// Read by inbox-input.ts for create/update; one error item per bad field.
import type { FieldErrors } from "./errors.ts";

export const PRE_CHAT_FIELD_TYPES = ["text", "email", "number", "phone", "list", "checkbox", "date", "link"] as const;
export const PRE_CHAT_FIELD_KINDS = ["standard", "contact_attribute", "conversation_attribute"] as const;
const MAX_FIELDS = 20;
const MAX_ORIGINS = 20;

export interface PreChatField {
  name: string;
  label: string;
  type: (typeof PRE_CHAT_FIELD_TYPES)[number];
  field_type: (typeof PRE_CHAT_FIELD_KINDS)[number];
  required: boolean;
  enabled: boolean;
  placeholder?: string;
  values?: string[];
}

export interface PreChatFormOptions {
  pre_chat_message: string;
  pre_chat_fields: PreChatField[];
}

/** Chatwoot's default form: email and name, both off until an administrator turns them on. */
export const DEFAULT_PRE_CHAT_OPTIONS: PreChatFormOptions = {
  pre_chat_message: "Share your queries or comments here.",
  pre_chat_fields: [
    { name: "emailAddress", label: "Email Id", type: "email", field_type: "standard", required: true, enabled: false },
    { name: "fullName", label: "Full name", type: "text", field_type: "standard", required: false, enabled: false },
    {
      name: "phoneNumber",
      label: "Phone number",
      type: "text",
      field_type: "standard",
      required: false,
      enabled: false,
    },
  ],
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown, max: number) => typeof v === "string" && v.trim() !== "" && v.length <= max;

/** Chatwoot's pre_chat_form_options: {pre_chat_message, pre_chat_fields: [{name, label, type, field_type, required, enabled, …}]}. */
export function preChatOptions(errors: FieldErrors, value: unknown): PreChatFormOptions | undefined {
  const field = "channel.pre_chat_form_options";
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    errors.add(field, "must be an object", "invalid");
    return undefined;
  }
  const message = value.pre_chat_message ?? "";
  if (typeof message !== "string" || message.length > 1000)
    errors.add(`${field}.pre_chat_message`, "must be text of at most 1000 characters", "invalid");
  const raw = value.pre_chat_fields ?? [];
  if (!Array.isArray(raw) || raw.length > MAX_FIELDS) {
    errors.add(`${field}.pre_chat_fields`, `must be a list of at most ${MAX_FIELDS} fields`, "invalid");
    return undefined;
  }
  const fields: PreChatField[] = [];
  const names = new Set<string>();
  for (const [i, f] of raw.entries()) {
    const clean = preChatField(errors, `${field}.pre_chat_fields.${i}`, f, names);
    if (clean) fields.push(clean);
  }
  return { pre_chat_message: typeof message === "string" ? message : "", pre_chat_fields: fields };
}

/** One pre-chat field, or null (with its error recorded). */
function preChatField(errors: FieldErrors, at: string, f: unknown, names: Set<string>): PreChatField | null {
  const bad = (path: string, message: string, code = "invalid") => (errors.add(path, message, code), null);
  if (!isObject(f)) return bad(at, "must be an object");
  if (!text(f.name, 64) || !/^[A-Za-z0-9_]+$/.test(f.name as string))
    return bad(`${at}.name`, "must be letters, digits or _ (at most 64)");
  const name = f.name as string;
  if (names.has(name)) return bad(`${at}.name`, "is used by another field", "taken");
  names.add(name);
  const type = f.type ?? "text";
  const kind = f.field_type ?? "standard";
  if (!(PRE_CHAT_FIELD_TYPES as readonly unknown[]).includes(type))
    return bad(`${at}.type`, `must be one of: ${PRE_CHAT_FIELD_TYPES.join(", ")}`);
  if (!(PRE_CHAT_FIELD_KINDS as readonly unknown[]).includes(kind))
    return bad(`${at}.field_type`, `must be one of: ${PRE_CHAT_FIELD_KINDS.join(", ")}`);
  const flag = (["required", "enabled"] as const).find((k) => f[k] !== undefined && typeof f[k] !== "boolean");
  if (flag) return bad(`${at}.${flag}`, "must be true or false");
  const label = f.label ?? name;
  if (!text(label, 255)) return bad(`${at}.label`, "must be text of at most 255 characters");
  const values = f.values;
  if (values !== undefined && (!Array.isArray(values) || values.some((v) => !text(v, 255)) || values.length > 50)) {
    return bad(`${at}.values`, "must be a list of at most 50 texts");
  }
  const placeholder = typeof f.placeholder === "string" ? f.placeholder.slice(0, 255) : undefined;
  return {
    name,
    label: label as string,
    type: type as PreChatField["type"],
    field_type: kind as PreChatField["field_type"],
    required: f.required === true,
    enabled: f.enabled !== false,
    ...(placeholder ? { placeholder } : {}),
    ...(values ? { values: values as string[] } : {}),
  };
}

/** An origin as browsers send it: scheme://host[:port], lower case, no path. */
export function normaliseOrigin(value: string): string | null {
  try {
    const u = new URL(value.trim());
    if ((u.protocol !== "http:" && u.protocol !== "https:") || !u.hostname) return null;
    return u.origin;
  } catch {
    return null;
  }
}

/** The origins whose pages may frame the chat (http or https, no path); an empty list means only website_url's. */
export function allowedOrigins(errors: FieldErrors, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > MAX_ORIGINS) {
    errors.add("channel.allowed_origins", `must be a list of at most ${MAX_ORIGINS} origins`, "invalid");
    return undefined;
  }
  const out: string[] = [];
  value.forEach((v, i) => {
    const origin = typeof v === "string" ? normaliseOrigin(v) : null;
    if (!origin)
      errors.add(
        `channel.allowed_origins.${i}`,
        "must be an http or https origin, e.g. https://shop.example.com",
        "invalid",
      );
    else if (!out.includes(origin)) out.push(origin);
  });
  return out;
}

/** Who may embed the chat: the allowed origins, or website_url's origin when none are listed. */
export function embeddingOrigins(attrs: { allowed_origins?: string[]; website_url?: string | null }): string[] {
  if (attrs.allowed_origins?.length) return attrs.allowed_origins;
  const own = attrs.website_url ? normaliseOrigin(attrs.website_url) : null;
  return own ? [own] : [];
}

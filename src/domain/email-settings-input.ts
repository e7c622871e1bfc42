// Reads an email inbox's mail settings from an inbox create/update body (Chatwoot's names, under
// `channel`): IMAP for mail in, SMTP for replies out. Passwords are sealed here, before anything
// stores them; a blank or absent password keeps the stored one (a settings form does not show it),
// null clears it. Checks that an enabled side has what it needs to connect.
import { EMAIL_SETTING_FIELDS, type EmailChannelRow, type EmailSettings } from "../db/email-channels.repo.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import { FieldErrors } from "./errors.ts";
import { oneOf, optionalString } from "./validate.ts";

export const EMAIL_DEFAULTS: EmailSettings = {
  imap_enabled: 0,
  imap_address: null,
  imap_port: 993,
  imap_login: null,
  imap_password: null,
  imap_enable_ssl: 1,
  imap_folder: "INBOX",
  smtp_enabled: 0,
  smtp_address: null,
  smtp_port: 587,
  smtp_login: null,
  smtp_password: null,
  smtp_domain: null,
  smtp_enable_ssl_tls: 0,
  smtp_enable_starttls_auto: 1,
  smtp_openssl_verify_mode: "peer",
  smtp_authentication: "login",
  reply_plus_addressing: 0,
};

const FLAGS = [
  "reply_plus_addressing",
  "imap_enabled",
  "imap_enable_ssl",
  "smtp_enabled",
  "smtp_enable_ssl_tls",
  "smtp_enable_starttls_auto",
] as const;
const HOST = /^[A-Za-z0-9.-]{1,253}$|^\[?[0-9A-Fa-f:.]+\]?$/;

/** Whether the body says anything about mail settings (an update without them writes nothing). */
export function mentionsEmailSettings(channel: Record<string, unknown>): boolean {
  return EMAIL_SETTING_FIELDS.some((k) => channel[k] !== undefined);
}

export function emailSettings(
  channel: Record<string, unknown>,
  current: EmailChannelRow | null,
  box: SecretBox,
): EmailSettings {
  const errors = new FieldErrors();
  const out: EmailSettings = { ...EMAIL_DEFAULTS };
  if (current) for (const k of EMAIL_SETTING_FIELDS) (out as Record<string, unknown>)[k] = current[k];
  for (const flag of FLAGS) {
    const v = channel[flag];
    if (v === undefined) continue;
    if (typeof v !== "boolean") errors.add(`channel.${flag}`, "must be true or false", "invalid");
    else out[flag] = v ? 1 : 0;
  }
  for (const side of ["imap", "smtp"] as const) {
    const host = optionalString(errors, `channel.${side}_address`, channel[`${side}_address`], 253);
    if (host !== undefined) {
      if (host !== null && !HOST.test(host))
        errors.add(`channel.${side}_address`, "must be a host name or an IP address", "invalid");
      else out[`${side}_address`] = host;
    }
    const login = optionalString(errors, `channel.${side}_login`, channel[`${side}_login`], 254);
    if (login !== undefined) out[`${side}_login`] = login;
    const port = channel[`${side}_port`];
    if (port !== undefined) {
      const n = typeof port === "string" && /^\d+$/.test(port) ? Number(port) : port;
      if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 65535)
        errors.add(`channel.${side}_port`, "must be a port number between 1 and 65535", "invalid");
      else out[`${side}_port`] = n;
    }
    const password = channel[`${side}_password`];
    if (password === null) out[`${side}_password`] = null;
    else if (typeof password === "string" && password !== "") {
      if (password.length > 1024)
        errors.add(`channel.${side}_password`, "is too long (maximum is 1024 characters)", "too_long");
      else out[`${side}_password`] = box.seal(password);
    } else if (password !== undefined && password !== "")
      errors.add(`channel.${side}_password`, "must be a string", "invalid");
  }
  const folder = optionalString(errors, "channel.imap_folder", channel.imap_folder, 255);
  if (folder) out.imap_folder = folder;
  // The EHLO name goes on the wire as it is: only a host name, never a line break.
  const domain = optionalString(errors, "channel.smtp_domain", channel.smtp_domain, 253);
  if (domain && !HOST.test(domain)) errors.add("channel.smtp_domain", "must be a host name", "invalid");
  else if (domain !== undefined) out.smtp_domain = domain;
  if (channel.smtp_openssl_verify_mode !== undefined)
    out.smtp_openssl_verify_mode =
      oneOf(errors, "channel.smtp_openssl_verify_mode", channel.smtp_openssl_verify_mode, ["none", "peer"] as const) ??
      out.smtp_openssl_verify_mode;
  if (channel.smtp_authentication !== undefined)
    out.smtp_authentication =
      oneOf(errors, "channel.smtp_authentication", channel.smtp_authentication, ["login", "plain"] as const) ??
      out.smtp_authentication;
  if (errors.empty) {
    for (const side of ["imap", "smtp"] as const) {
      if (out[`${side}_enabled`] !== 1) continue;
      for (const k of ["address", "login", "password"] as const)
        if (!out[`${side}_${k}`])
          errors.add(`channel.${side}_${k}`, `is needed when ${side}_enabled is true`, "required");
    }
  }
  errors.throwIfAny();
  return out;
}

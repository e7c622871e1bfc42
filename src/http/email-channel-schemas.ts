// The mail settings keys of an email inbox (Chatwoot's Channel::Email names), spread into the inbox
// body and record schemas: body keys are read leniently (the service answers 422 in its own words),
// record keys appear for administrators on email inboxes only.
import { t } from "elysia";
import { Checked, Integer, Nullable } from "./schemas.ts";

const Text = t.Optional(Checked(Nullable(t.String())));
const Check = t.Optional(Checked(t.Boolean()));
const Port = t.Optional(Checked(Integer({ minimum: 1, maximum: 65535 })));

export const EmailSettingsBody = {
  imap_enabled: Check,
  imap_address: Text,
  imap_port: Port,
  imap_login: Text,
  imap_password: t.Optional(
    Checked(Nullable(t.String({ description: "write-only; blank keeps the stored one, null clears it" }))),
  ),
  imap_enable_ssl: Check,
  imap_folder: t.Optional(Checked(t.String({ description: "Parley: the folder to read (default INBOX)" }))),
  smtp_enabled: Check,
  smtp_address: Text,
  smtp_port: Port,
  smtp_login: Text,
  smtp_password: t.Optional(
    Checked(Nullable(t.String({ description: "write-only; blank keeps the stored one, null clears it" }))),
  ),
  smtp_domain: Text,
  smtp_enable_ssl_tls: Check,
  smtp_enable_starttls_auto: Check,
  smtp_openssl_verify_mode: t.Optional(Checked(t.String({ description: "none or peer" }))),
  smtp_authentication: t.Optional(Checked(t.String({ description: "login or plain" }))),
  reply_plus_addressing: t.Optional(
    Checked(t.Boolean({ description: "Parley: replies carry Reply-To <local>+<conversation uuid>@<domain>" })),
  ),
};

const S = t.Optional(Nullable(t.String()));
const B = t.Optional(t.Boolean());
const N = t.Optional(Integer());

export const EmailSettingsRecord = {
  imap_enabled: B,
  imap_address: S,
  imap_port: N,
  imap_login: S,
  imap_password_set: t.Optional(t.Boolean({ description: "Parley: passwords are never returned" })),
  imap_enable_ssl: B,
  imap_folder: t.Optional(t.String()),
  smtp_enabled: B,
  smtp_address: S,
  smtp_port: N,
  smtp_login: S,
  smtp_password_set: t.Optional(t.Boolean({ description: "Parley: passwords are never returned" })),
  smtp_domain: S,
  smtp_enable_ssl_tls: B,
  smtp_enable_starttls_auto: B,
  smtp_openssl_verify_mode: t.Optional(t.String()),
  smtp_authentication: t.Optional(t.String()),
  reply_plus_addressing: B,
  last_synced_at: t.Optional(
    Nullable(Integer({ description: "Parley: when the mailbox was last read (unix seconds)" })),
  ),
  last_error: t.Optional(Nullable(t.String({ description: "Parley: what went wrong on the last try, in words" }))),
};

// The mail settings keys of an email inbox (Chatwoot's Channel::Email names), spread into the inbox
// body and record schemas: body keys are read leniently (the service answers 422 in its own words),
// record keys appear for administrators on email inboxes only.
import { t } from "elysia";
import { Nullable } from "./schemas.ts";

const Loose = t.Optional(t.Unknown());

export const EmailSettingsBody = {
  imap_enabled: Loose,
  imap_address: Loose,
  imap_port: Loose,
  imap_login: Loose,
  imap_password: t.Optional(t.Unknown({ description: "write-only; blank keeps the stored one, null clears it" })),
  imap_enable_ssl: Loose,
  imap_folder: t.Optional(t.Unknown({ description: "Parley: the folder to read (default INBOX)" })),
  smtp_enabled: Loose,
  smtp_address: Loose,
  smtp_port: Loose,
  smtp_login: Loose,
  smtp_password: t.Optional(t.Unknown({ description: "write-only; blank keeps the stored one, null clears it" })),
  smtp_domain: Loose,
  smtp_enable_ssl_tls: Loose,
  smtp_enable_starttls_auto: Loose,
  smtp_openssl_verify_mode: t.Optional(t.Unknown({ description: "none or peer" })),
  smtp_authentication: t.Optional(t.Unknown({ description: "login or plain" })),
};

const S = t.Optional(Nullable(t.String()));
const B = t.Optional(t.Boolean());
const N = t.Optional(t.Integer());

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
  last_synced_at: t.Optional(
    Nullable(t.Integer({ description: "Parley: when the mailbox was last read (unix seconds)" })),
  ),
  last_error: t.Optional(Nullable(t.String({ description: "Parley: what went wrong on the last try, in words" }))),
};

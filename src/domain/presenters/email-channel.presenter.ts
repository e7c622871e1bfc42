// The mail settings an administrator sees on an email inbox (Chatwoot's inbox partial, IMAP and
// SMTP keys), without the passwords: Chatwoot returns them; Parley says only whether one is set.
// last_synced_at and last_error are ours: what the poller last managed, and what went wrong.
import type { EmailChannelRow } from "../../db/email-channels.repo.ts";
import { EMAIL_DEFAULTS } from "../email-settings-input.ts";

const bool = (v: number) => v === 1;

export function emailChannelOf(row: EmailChannelRow | null) {
  const r = row ?? { ...EMAIL_DEFAULTS, last_synced_at: null, last_error: null, last_error_at: null };
  return {
    imap_enabled: bool(r.imap_enabled),
    imap_address: r.imap_address,
    imap_port: r.imap_port,
    imap_login: r.imap_login,
    imap_password_set: r.imap_password !== null,
    imap_enable_ssl: bool(r.imap_enable_ssl),
    imap_folder: r.imap_folder,
    smtp_enabled: bool(r.smtp_enabled),
    smtp_address: r.smtp_address,
    smtp_port: r.smtp_port,
    smtp_login: r.smtp_login,
    smtp_password_set: r.smtp_password !== null,
    smtp_domain: r.smtp_domain,
    smtp_enable_ssl_tls: bool(r.smtp_enable_ssl_tls),
    smtp_enable_starttls_auto: bool(r.smtp_enable_starttls_auto),
    smtp_openssl_verify_mode: r.smtp_openssl_verify_mode,
    smtp_authentication: r.smtp_authentication,
    reply_plus_addressing: bool(r.reply_plus_addressing),
    last_synced_at: r.last_synced_at,
    last_error: r.last_error,
  };
}

export type EmailChannelView = ReturnType<typeof emailChannelOf>;

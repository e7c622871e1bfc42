// Mail settings: where the key that encrypts mailbox passwords lives, how often email inboxes are
// polled, whether their mail servers may be on private addresses, and the installation's own SMTP
// server for the mail Parley sends its users (password resets, invitations, notifications).

import { isPostgresUrl } from "./config-db.ts";

export interface MailConfig {
  /** Key material given in the environment (PARLEY_SECRET_KEY); else the key file is used. */
  readonly secretKey: string | null;
  /** The key file beside the database (`<db>.key`), made on first use; null for an in-memory or PostgreSQL database. */
  readonly keyFile: string | null;
  /** Seconds between reads of a mailbox besides those IMAP IDLE asks for (a safety net). */
  readonly pollSeconds: number;
  /** Largest mail filed, in bytes; a larger one is skipped with a note on the inbox. */
  readonly maxMessageBytes: number;
  /** Mail servers on loopback and private addresses: refused unless this is on (as for webhooks). */
  readonly allowPrivateHosts: boolean;
  /** The installation's SMTP server for mail to its users (resets, invitations, notifications); null: none configured. */
  readonly accountMail: AccountMailConfig | null;
}

export interface AccountMailConfig {
  host: string;
  port: number;
  /** smtps:// — TLS from the first byte; smtp:// upgrades with STARTTLS when the server offers it. */
  secure: boolean;
  user: string | null;
  password: string | null;
  /** The From of the mail: PARLEY_MAIL_FROM, else "Parley <parley@HOST>" with the SMTP server's host. */
  from: string;
}

export const MAIL_DEFAULTS = { pollSeconds: 60, maxMessageBytes: 25 * 1024 * 1024 };

export const MAIL_CONFIG_TABLE = [
  [
    "",
    "PARLEY_SECRET_KEY",
    "<db>.key",
    "key that encrypts email inbox passwords; unset: a random key kept in the file <db>.key (back it up with the database)",
  ],
  ["", "PARLEY_MAIL_POLL_SECONDS", String(MAIL_DEFAULTS.pollSeconds), "seconds between checks of each email inbox"],
  [
    "",
    "PARLEY_MAIL_MAX_BYTES",
    String(MAIL_DEFAULTS.maxMessageBytes),
    "largest incoming mail in bytes; larger ones are skipped and noted on the inbox",
  ],
  ["", "PARLEY_ALLOW_PRIVATE_MAIL_HOSTS", "0", "1 allows IMAP and SMTP servers on loopback and private addresses"],
  [
    "",
    "PARLEY_SMTP_URL",
    "",
    "smtp://user:password@host:587 (or smtps://…:465): the installation's mail server for mail to its users (password resets, invitations, notifications); unset: none is sent",
  ],
  ["", "PARLEY_MAIL_FROM", "Parley <parley@SMTP host>", "the From of the mail Parley sends its users"],
] as const;

type Env = Record<string, string | undefined>;
type IntegerReader = (name: string, raw: string | undefined, fallback: number, min: number, max: number) => number;
type BoolReader = (name: string, raw: string | undefined) => boolean;
type Fail = (message: string) => never;

export function mailConfig(db: string, env: Env, integer: IntegerReader, bool: BoolReader, fail: Fail): MailConfig {
  // No file beside the database to keep the key in: in memory, or PostgreSQL (PARLEY_SECRET_KEY).
  const noFile = db === ":memory:" || db === "" || isPostgresUrl(db);
  return {
    secretKey: env.PARLEY_SECRET_KEY || null,
    keyFile: noFile ? null : `${db}.key`,
    pollSeconds: integer(
      "PARLEY_MAIL_POLL_SECONDS",
      env.PARLEY_MAIL_POLL_SECONDS || undefined,
      MAIL_DEFAULTS.pollSeconds,
      1,
      86_400,
    ),
    maxMessageBytes: integer(
      "PARLEY_MAIL_MAX_BYTES",
      env.PARLEY_MAIL_MAX_BYTES || undefined,
      MAIL_DEFAULTS.maxMessageBytes,
      1024,
      1024 * 1024 * 1024,
    ),
    allowPrivateHosts: bool("PARLEY_ALLOW_PRIVATE_MAIL_HOSTS", env.PARLEY_ALLOW_PRIVATE_MAIL_HOSTS || undefined),
    accountMail: accountMailConfig(env.PARLEY_SMTP_URL || null, env.PARLEY_MAIL_FROM || null, fail),
  };
}

/**
 * PARLEY_SMTP_URL read once at start, so a typo stops `serve` with a clear message instead of
 * surfacing as a failed mail later. The operator chose this server: it may be on a private address
 * (a relay on the same machine is the usual set-up), unlike the mail servers of email inboxes.
 */
function accountMailConfig(raw: string | null, rawFrom: string | null, fail: Fail): AccountMailConfig | null {
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail("PARLEY_SMTP_URL must be a URL like smtp://user:password@mail.example.com:587");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:")
    fail(`PARLEY_SMTP_URL must start with smtp:// or smtps://, got "${url.protocol}//"`);
  if (!url.hostname) fail("PARLEY_SMTP_URL names no host");
  const secure = url.protocol === "smtps:";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const from = rawFrom ?? `Parley <parley@${host}>`;
  if (!/^[^<>]*<[^<>@\s]+@[^<>@\s]+>$|^[^<>@\s]+@[^<>@\s]+$/.test(from.trim()))
    fail(`PARLEY_MAIL_FROM must be an address, or a name and <address>, got "${from}"`);
  return {
    host,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    user: url.username ? decodeURIComponent(url.username) : null,
    password: url.password ? decodeURIComponent(url.password) : null,
    from: from.trim(),
  };
}

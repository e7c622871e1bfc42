// Email inbox settings: where the key that encrypts mailbox passwords lives, how often mailboxes
// are polled, and whether mail servers on private addresses may be reached.

export interface MailConfig {
  /** Key material given in the environment (PARLEY_SECRET_KEY); else the key file is used. */
  readonly secretKey: string | null;
  /** The key file beside the database (`<db>.key`), made on first use; null for an in-memory database. */
  readonly keyFile: string | null;
  /** Seconds between reads of a mailbox besides those IMAP IDLE asks for (a safety net). */
  readonly pollSeconds: number;
  /** Largest mail filed, in bytes; a larger one is skipped with a note on the inbox. */
  readonly maxMessageBytes: number;
  /** Mail servers on loopback and private addresses: refused unless this is on (as for webhooks). */
  readonly allowPrivateHosts: boolean;
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
] as const;

type Env = Record<string, string | undefined>;
type IntegerReader = (name: string, raw: string | undefined, fallback: number, min: number, max: number) => number;
type BoolReader = (name: string, raw: string | undefined) => boolean;

export function mailConfig(db: string, env: Env, integer: IntegerReader, bool: BoolReader): MailConfig {
  const memory = db === ":memory:" || db === "";
  return {
    secretKey: env.PARLEY_SECRET_KEY || null,
    keyFile: memory ? null : `${db}.key`,
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
  };
}

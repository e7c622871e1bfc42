// Flags and environment are read once, here, into a frozen Config. Flags win over env.
import { isPostgresUrl } from "./config-db.ts";
import { FILES_CONFIG_TABLE, filesConfig, type FilesConfig } from "./config-files.ts";
import { MAIL_CONFIG_TABLE, mailConfig, type MailConfig } from "./config-mail.ts";
import type { LogLevel } from "./lib/logger.ts";

export interface Config {
  readonly db: string;
  readonly port: number;
  readonly host: string;
  readonly allowPrivateWebhooks: boolean;
  readonly logLevel: LogLevel;
  /** Largest request body the API reads, in bytes (413 above it). */
  readonly bodyLimit: number;
  /** Per-attempt webhook timeout (connect + answer), in milliseconds. */
  readonly webhookTimeoutMs: number;
  /** PostgreSQL: how long a statement may go unanswered before the server exits (to be started again). */
  readonly databaseTimeoutMs: number;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For and https from X-Forwarded-Proto. */
  readonly trustProxy: boolean;
  /** Days of events kept for realtime replay and HTTP catch-up (older `since` values get "resync"). */
  readonly eventRetentionDays: number;
  /** A realtime replay (/cable since=, GET …/events) deeper than this many events answers resync instead. */
  readonly replayMaxEvents: number;
  /** Public (client) API limits, token buckets; 0 turns one off. */
  readonly publicLimits: PublicLimitsConfig;
  /** Attachments: storage, links, upload limits (src/config-files.ts). */
  readonly files: FilesConfig;
  /** Email inboxes: the password key, polling, limits (src/config-mail.ts). */
  readonly mail: MailConfig;
  /**
   * Where mobile pushes go (PARLEY_PUSH_RELAY_URL): a relay that speaks Chatwoot's hub protocol, such
   * as Chatwoot's own (https://hub.2.chatwoot.com/send_push), which holds the mobile app's FCM key.
   * Null: no pushes (off by default: a push carries the notification's words to that server).
   */
  readonly pushRelayUrl: string | null;
}

export interface PublicLimitsConfig {
  /** Requests per minute from one client address (IPv6: per /64), every public route. */
  readonly requestsPerMinute: number;
  /** Messages per minute from one contact. */
  readonly messagesPerMinute: number;
  /** Conversations per hour opened by one contact. */
  readonly conversationsPerHour: number;
  /** Contact creations per hour from one client address. */
  readonly contactsPerHour: number;
}

export class ConfigError extends Error {}

export { isPostgresUrl };

const LEVELS: LogLevel[] = ["debug", "info", "warn", "error", "silent"];

export const DEFAULTS = {
  db: "./parley.db",
  port: 3000,
  host: "127.0.0.1",
  bodyLimit: 1024 * 1024,
  logLevel: "info" as LogLevel,
  webhookTimeoutMs: 5000, // Chatwoot's WEBHOOK_TIMEOUT default
  databaseTimeoutMs: 60_000,
  eventRetentionDays: 7,
  replayMaxEvents: 10_000,
  publicLimits: {
    requestsPerMinute: 120,
    messagesPerMinute: 60,
    conversationsPerHour: 10,
    contactsPerHour: 100,
  } as PublicLimitsConfig,
};

/** Config keys, their flag, env variable and meaning: docs/configuration.md's table is this list. */
export const CONFIG_TABLE = [
  ["--db", "PARLEY_DB", DEFAULTS.db, "SQLite database file (created if missing)"],
  ["--port", "PARLEY_PORT", String(DEFAULTS.port), "HTTP port (0 picks a free one)"],
  ["--host", "PARLEY_HOST", DEFAULTS.host, "address to listen on (0.0.0.0 for all)"],
  ["", "PARLEY_ALLOW_PRIVATE_WEBHOOKS", "0", "1 allows webhook delivery to loopback and private addresses"],
  ["", "PARLEY_LOG_LEVEL", DEFAULTS.logLevel, "debug, info, warn, error or silent"],
  ["", "PARLEY_BODY_LIMIT", String(DEFAULTS.bodyLimit), "largest request body in bytes"],
  ["", "PARLEY_WEBHOOK_TIMEOUT_MS", String(DEFAULTS.webhookTimeoutMs), "per-attempt webhook timeout in milliseconds"],
  [
    "",
    "PARLEY_DB_TIMEOUT_MS",
    String(DEFAULTS.databaseTimeoutMs),
    "PostgreSQL: a statement unanswered this long makes the server exit (code 75) to be started again",
  ],
  [
    "",
    "PARLEY_TRUST_PROXY",
    "0",
    "1 behind a reverse proxy: client address from X-Forwarded-For, https from X-Forwarded-Proto",
  ],
  [
    "",
    "PARLEY_EVENT_RETENTION_DAYS",
    String(DEFAULTS.eventRetentionDays),
    "days of events kept for realtime replay (/cable since=, GET …/events)",
  ],
  [
    "",
    "PARLEY_REPLAY_MAX_EVENTS",
    String(DEFAULTS.replayMaxEvents),
    "a replay further back than this many events (of all accounts) answers resync: reload instead of streaming history",
  ],
  [
    "",
    "PARLEY_PUBLIC_REQUESTS_PER_MINUTE",
    String(DEFAULTS.publicLimits.requestsPerMinute),
    "public API: requests per minute from one client address (0: no limit)",
  ],
  [
    "",
    "PARLEY_PUBLIC_MESSAGES_PER_MINUTE",
    String(DEFAULTS.publicLimits.messagesPerMinute),
    "public API: messages per minute from one contact (0: no limit)",
  ],
  [
    "",
    "PARLEY_PUBLIC_CONVERSATIONS_PER_HOUR",
    String(DEFAULTS.publicLimits.conversationsPerHour),
    "public API: conversations per hour opened by one contact (0: no limit)",
  ],
  [
    "",
    "PARLEY_PUBLIC_CONTACTS_PER_HOUR",
    String(DEFAULTS.publicLimits.contactsPerHour),
    "public API: contacts created per hour from one client address (0: no limit)",
  ],
  ...FILES_CONFIG_TABLE,
  ...MAIL_CONFIG_TABLE,
  [
    "",
    "PARLEY_PUSH_RELAY_URL",
    "",
    "push relay for the Chatwoot mobile app, e.g. https://hub.2.chatwoot.com/send_push; unset: no mobile push",
  ],
] as const;

type Env = Record<string, string | undefined>;

function pick(flag: string | undefined, env: string | undefined): string | undefined {
  return flag !== undefined && flag !== "" ? flag : env !== undefined && env !== "" ? env : undefined;
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function pushRelayUrl(raw: string | null): string | null {
  if (raw === null) return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:"))
    throw new ConfigError(`PARLEY_PUSH_RELAY_URL must be an http(s) URL, got "${raw}"`);
  return url.href;
}

function configFailure(message: string): never {
  throw new ConfigError(message);
}

function flagBool(name: string, raw: string | undefined): boolean {
  if (raw === undefined) return false;
  if (["1", "true", "yes", "on"].includes(raw.toLowerCase())) return true;
  if (["0", "false", "no", "off"].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be 1 or 0, got "${raw}"`);
}

export function loadConfig(
  flags: Partial<Record<"db" | "port" | "host" | "storage", string>> = {},
  env: Env = process.env,
): Config {
  const logLevel = (env.PARLEY_LOG_LEVEL || DEFAULTS.logLevel) as LogLevel;
  if (!LEVELS.includes(logLevel))
    throw new ConfigError(`PARLEY_LOG_LEVEL must be one of ${LEVELS.join(", ")}, got "${logLevel}"`);
  const db = pick(flags.db, env.PARLEY_DB) ?? DEFAULTS.db;
  // On SQLite the key that seals inbox passwords is made in a file beside the database; a
  // PostgreSQL database has no such place, and every process must use the same key.
  if (isPostgresUrl(db) && !env.PARLEY_SECRET_KEY)
    throw new ConfigError(
      "--db (or PARLEY_DB) is a PostgreSQL URL: set PARLEY_SECRET_KEY too (the key that encrypts " +
        "email inbox passwords, the same for every process: any long random string, e.g. `openssl rand -base64 32`)",
    );
  const port = integer("port", pick(flags.port, env.PARLEY_PORT), DEFAULTS.port, 0, 65535);
  const host = pick(flags.host, env.PARLEY_HOST) ?? DEFAULTS.host;
  return Object.freeze({
    db,
    port,
    host,
    allowPrivateWebhooks: flagBool("PARLEY_ALLOW_PRIVATE_WEBHOOKS", env.PARLEY_ALLOW_PRIVATE_WEBHOOKS || undefined),
    logLevel,
    bodyLimit: integer(
      "PARLEY_BODY_LIMIT",
      env.PARLEY_BODY_LIMIT || undefined,
      DEFAULTS.bodyLimit,
      1024,
      512 * 1024 * 1024,
    ),
    webhookTimeoutMs: integer(
      "PARLEY_WEBHOOK_TIMEOUT_MS",
      env.PARLEY_WEBHOOK_TIMEOUT_MS || undefined,
      DEFAULTS.webhookTimeoutMs,
      100,
      60_000,
    ),
    databaseTimeoutMs: integer(
      "PARLEY_DB_TIMEOUT_MS",
      env.PARLEY_DB_TIMEOUT_MS || undefined,
      DEFAULTS.databaseTimeoutMs,
      1000,
      3_600_000,
    ),
    trustProxy: flagBool("PARLEY_TRUST_PROXY", env.PARLEY_TRUST_PROXY || undefined),
    eventRetentionDays: integer(
      "PARLEY_EVENT_RETENTION_DAYS",
      env.PARLEY_EVENT_RETENTION_DAYS || undefined,
      DEFAULTS.eventRetentionDays,
      1,
      3650,
    ),
    replayMaxEvents: integer(
      "PARLEY_REPLAY_MAX_EVENTS",
      env.PARLEY_REPLAY_MAX_EVENTS || undefined,
      DEFAULTS.replayMaxEvents,
      10,
      100_000_000,
    ),
    publicLimits: Object.freeze(publicLimits(env)),
    files: filesConfig(db, host, port, flags.storage, env, integer),
    mail: Object.freeze(mailConfig(db, env, integer, flagBool, configFailure)),
    pushRelayUrl: pushRelayUrl(env.PARLEY_PUSH_RELAY_URL || null),
  });
}

function publicLimits(env: Env): PublicLimitsConfig {
  const d = DEFAULTS.publicLimits;
  const n = (name: string, fallback: number) => integer(name, env[name] || undefined, fallback, 0, 1_000_000);
  return {
    requestsPerMinute: n("PARLEY_PUBLIC_REQUESTS_PER_MINUTE", d.requestsPerMinute),
    messagesPerMinute: n("PARLEY_PUBLIC_MESSAGES_PER_MINUTE", d.messagesPerMinute),
    conversationsPerHour: n("PARLEY_PUBLIC_CONVERSATIONS_PER_HOUR", d.conversationsPerHour),
    contactsPerHour: n("PARLEY_PUBLIC_CONTACTS_PER_HOUR", d.contactsPerHour),
  };
}

// Attachment settings: where files are kept (a directory beside the database, or an S3 bucket),
// the public address their links start with, and how large uploads may be.

import { isPostgresUrl } from "./config-db.ts";

export interface FilesConfig {
  /** Directory of stored files (and the upload spool); `<db>.files` unless set. */
  readonly dir: string;
  /** The address clients reach Parley at: attachment links (data_url) start with it. */
  readonly publicUrl: string;
  /** Whether publicUrl was configured (else the server replaces it with the address it listens on). */
  readonly publicUrlSet: boolean;
  readonly maxFileBytes: number;
  readonly maxRequestBytes: number;
  readonly maxFiles: number;
  /** S3-compatible storage instead of the directory (the directory then only spools uploads). */
  readonly s3: S3Config | null;
}

export interface S3Config {
  readonly bucket: string;
  readonly endpoint?: string;
  readonly region?: string;
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
}

export const FILES_DEFAULTS = { maxFileBytes: 40 * 1024 * 1024, maxRequestBytes: 100 * 1024 * 1024, maxFiles: 10 };

export const FILES_CONFIG_TABLE = [
  [
    "--storage",
    "PARLEY_STORAGE",
    "<db>.files",
    "directory for attachments (and the upload spool when S3 is used); on PostgreSQL ./parley-files",
  ],
  [
    "",
    "PARLEY_PUBLIC_URL",
    "http://<host>:<port>",
    "the address clients reach Parley at; attachment links (data_url) start with it",
  ],
  ["", "PARLEY_MAX_FILE_BYTES", String(FILES_DEFAULTS.maxFileBytes), "largest attachment in bytes (413 above it)"],
  [
    "",
    "PARLEY_MAX_UPLOAD_BYTES",
    String(FILES_DEFAULTS.maxRequestBytes),
    "largest total of the files of one request in bytes",
  ],
  ["", "PARLEY_MAX_FILES", String(FILES_DEFAULTS.maxFiles), "most files in one request"],
  ["", "PARLEY_S3_BUCKET", "", "store attachments in this S3 bucket instead of the directory"],
  ["", "PARLEY_S3_ENDPOINT", "", "S3-compatible endpoint (MinIO, R2, …); AWS when empty"],
  ["", "PARLEY_S3_REGION", "", "S3 region"],
  ["", "PARLEY_S3_ACCESS_KEY_ID", "", "S3 access key (else S3_ACCESS_KEY_ID / AWS_ACCESS_KEY_ID)"],
  ["", "PARLEY_S3_SECRET_ACCESS_KEY", "", "S3 secret key (else S3_SECRET_ACCESS_KEY / AWS_SECRET_ACCESS_KEY)"],
] as const;

type Env = Record<string, string | undefined>;
type Integer = (name: string, raw: string | undefined, fallback: number, min: number, max: number) => number;

export function filesConfig(
  db: string,
  host: string,
  port: number,
  storageFlag: string | undefined,
  env: Env,
  integer: Integer,
): FilesConfig {
  const dir =
    storageFlag ||
    env.PARLEY_STORAGE ||
    (db === ":memory:"
      ? `${tmpBase()}/parley-${crypto.randomUUID()}.files`
      : // A PostgreSQL URL is no place for a directory: the working directory is.
        isPostgresUrl(db)
        ? "./parley-files"
        : `${db}.files`);
  const shownHost = host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host;
  const bucket = env.PARLEY_S3_BUCKET || "";
  return Object.freeze({
    dir,
    publicUrl: (env.PARLEY_PUBLIC_URL || `http://${shownHost}:${port}`).replace(/\/+$/, ""),
    publicUrlSet: Boolean(env.PARLEY_PUBLIC_URL),
    maxFileBytes: integer(
      "PARLEY_MAX_FILE_BYTES",
      env.PARLEY_MAX_FILE_BYTES || undefined,
      FILES_DEFAULTS.maxFileBytes,
      1024,
      4 * 1024 ** 3,
    ),
    maxRequestBytes: integer(
      "PARLEY_MAX_UPLOAD_BYTES",
      env.PARLEY_MAX_UPLOAD_BYTES || undefined,
      FILES_DEFAULTS.maxRequestBytes,
      1024,
      16 * 1024 ** 3,
    ),
    maxFiles: integer("PARLEY_MAX_FILES", env.PARLEY_MAX_FILES || undefined, FILES_DEFAULTS.maxFiles, 1, 100),
    s3: bucket
      ? Object.freeze({
          bucket,
          ...(env.PARLEY_S3_ENDPOINT ? { endpoint: env.PARLEY_S3_ENDPOINT } : {}),
          ...(env.PARLEY_S3_REGION ? { region: env.PARLEY_S3_REGION } : {}),
          ...(env.PARLEY_S3_ACCESS_KEY_ID ? { accessKeyId: env.PARLEY_S3_ACCESS_KEY_ID } : {}),
          ...(env.PARLEY_S3_SECRET_ACCESS_KEY ? { secretAccessKey: env.PARLEY_S3_SECRET_ACCESS_KEY } : {}),
        })
      : null,
  });
}

function tmpBase(): string {
  return (process.env.TMPDIR || "/tmp").replace(/\/+$/, "");
}

// The foundation's subcommands (docs/cli.md). Each parses its own flags and returns an exit code.
import { chmodSync, copyFileSync, existsSync } from "node:fs";
import pkg from "../../package.json" with { type: "json" };
import { isPostgresUrl, loadConfig } from "../config.ts";
import { migrate, schemaVersion } from "../db/migrate.ts";
import { openDatabase } from "../db/open.ts";
import { copyDatabaseTo } from "../db/maintenance.ts";
import { startServer } from "../server.ts";
import { parseFlags, UsageError, usage, type FlagSpec } from "./args.ts";
import { withDeps, type Command, type Io } from "./context.ts";
import { readSecret } from "./secret.ts";
import { copyAttachmentFiles } from "./backup-files.ts";
import { migratePostgresAt, migrationSummary } from "./postgres-connect.ts";

export function command<S extends FlagSpec>(
  name: string,
  summary: string,
  spec: S,
  run: (flags: ReturnType<typeof parseFlags<S>>, io: Io) => Promise<number> | number,
): Command {
  return {
    name,
    summary,
    run(argv, io) {
      if (argv.includes("--help") || argv.includes("-h")) {
        io.out(usage(name, summary, spec));
        return 0;
      }
      return run(parseFlags(name, spec, argv), io);
    },
  };
}

const dbFlag = { type: "string", help: "SQLite database file (env PARLEY_DB, default ./parley.db)" } as const;
export const dbRequired = { type: "string", help: "SQLite database file, or postgres:// URL", required: true } as const;
export const jsonFlag = { type: "boolean", help: "print one JSON line" } as const;

export const serve = command(
  "serve",
  "run the HTTP server (creates the first account on an empty database)",
  {
    db: dbFlag,
    port: { type: "string", help: "port (env PARLEY_PORT, default 3000)" },
    host: { type: "string", help: "address (env PARLEY_HOST, default 127.0.0.1)" },
    storage: { type: "string", help: "attachments directory (env PARLEY_STORAGE, default <db>.files)" },
  },
  async (f, io) => {
    const server = await startServer(loadConfig({ db: f.db, port: f.port, host: f.host, storage: f.storage }), io.out);
    const shutdown = async (signal: string) => {
      io.err(`${signal}: draining and stopping`);
      await server.stop();
      process.exit(0);
    };
    process.once("SIGTERM", () => void shutdown("SIGTERM"));
    process.once("SIGINT", () => void shutdown("SIGINT"));
    await new Promise(() => {}); // serve until a signal arrives
    return 0;
  },
);

export const bootstrap = command(
  "bootstrap",
  "create an account with an administrator and print an API token",
  {
    db: dbRequired,
    account: { type: "string", help: "account name", required: true },
    name: { type: "string", help: "administrator's name", required: true },
    email: { type: "string", help: "administrator's email", required: true },
    json: jsonFlag,
  },
  async (f, io) => {
    const r = await withDeps(f.db, (d) =>
      d.services.accounts.bootstrap({ account: f.account, name: f.name, email: f.email }),
    );
    if (f.json) io.out(JSON.stringify(r));
    else
      io.out(
        `Created account ${r.account_id} with administrator user ${r.user_id}.\nAPI access token (shown once): ${r.api_access_token}`,
      );
    return 0;
  },
);

export const migrateCommand = command(
  "migrate",
  "bring the database schema up to date",
  { db: { type: "string", help: "SQLite database file, or a postgres:// URL", required: true } },
  async (f, io) => {
    if (isPostgresUrl(f.db!)) return migratePostgresAt(f.db!, io);
    const db = openDatabase(f.db!);
    try {
      const applied = migrate(db);
      io.out(migrationSummary(applied, schemaVersion(db)));
    } finally {
      db.close();
    }
    return 0;
  },
);

export const token = command(
  "token",
  "issue a new API access token for a user",
  { db: dbRequired, email: { type: "string", help: "the user's email", required: true }, json: jsonFlag },
  async (f, io) => {
    const r = await withDeps(f.db, (d) => d.services.accounts.issueTokenForEmail(f.email!));
    io.out(f.json ? JSON.stringify(r) : `API access token for user ${r.user_id} (shown once): ${r.api_access_token}`);
    return 0;
  },
);

export const password = command(
  "password",
  "set a user's web sign-in password (typed, or the first line of stdin); ends their browser sessions",
  {
    db: dbRequired,
    email: { type: "string", help: "the user's email", required: true },
    password: { type: "string", help: "the new password, for scripts (visible to ps: prefer stdin)" },
  },
  async (f, io) => {
    const secret = f.password ?? (await (io.readSecret ?? readSecret)("New password (at least 8 characters): "));
    const r = await withDeps(f.db, (d) => d.services.passwords.setForEmail(f.email!, secret));
    io.out(`Password set for user ${r.user_id}; ${r.sessions_ended} browser session(s) ended.`);
    return 0;
  },
);

export const backup = command(
  "backup",
  "write an online, consistent copy of the database and its attachment files (safe while serving)",
  {
    db: dbRequired,
    to: { type: "string", help: "file to write (must not exist); files go to <to>.files", required: true },
    storage: { type: "string", help: "attachments directory (env PARLEY_STORAGE, default <db>.files)" },
  },
  async (f, io) => {
    if (isPostgresUrl(f.db!))
      throw new UsageError(
        "--db is a PostgreSQL URL: back PostgreSQL up with pg_dump; parley backup copies a SQLite file",
      );
    if (existsSync(f.to!)) throw new UsageError(`--to ${f.to} already exists; choose a new file`);
    // Read first, so a bad flag or environment stops the backup before anything is written.
    const config = loadConfig({ db: f.db, storage: f.storage });
    const db = openDatabase(f.db!);
    try {
      // VACUUM INTO copies inside one read transaction: consistent while writers go on.
      copyDatabaseTo(db, f.to!);
    } finally {
      db.close();
    }
    io.out(`backup written to ${f.to}`);
    // The key that opens the email inboxes' passwords: without it a restored copy cannot read mail.
    if (config.mail.keyFile && !config.mail.secretKey && existsSync(config.mail.keyFile)) {
      copyFileSync(config.mail.keyFile, `${f.to}.key`);
      chmodSync(`${f.to}.key`, 0o600);
      io.out(`secret key copied to ${f.to}.key (it opens the email inboxes' passwords: keep it with the copy)`);
    }
    if (config.files.s3) {
      io.out(`attachments stay in S3 bucket ${config.files.s3.bucket} (back it up with the bucket's own tools)`);
      return 0;
    }
    const files = await copyAttachmentFiles(f.to!, config.files.dir, `${f.to}.files`);
    io.out(
      `${files.copied} attachment file(s) copied to ${f.to}.files${files.missing ? `; ${files.missing} missing (deleted while the backup ran)` : ""}`,
    );
    return 0;
  },
);

export const version = command("version", "print the version", {}, (_f, io) => {
  io.out(`parley ${pkg.version} (bun ${Bun.version})`);
  return 0;
});

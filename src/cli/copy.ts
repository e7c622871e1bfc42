// `parley copy`: a SQLite installation into an empty PostgreSQL database. The copy's modules are
// imported when it runs, so a server on SQLite does not load them.
import type { Database } from "bun:sqlite";
import { loadConfig } from "../config.ts";
import { CopySourceError, openCopySource } from "../db/copy-source.ts";
import { UsageError } from "./args.ts";
import { command, jsonFlag } from "./commands.ts";
import { connect, migrationSummary, postgresUrl, where } from "./postgres-connect.ts";

/** The source, or a usage error saying why it cannot be copied. */
function openSource(path: string): Database {
  try {
    return openCopySource(path);
  } catch (error) {
    if (error instanceof CopySourceError) throw new UsageError(error.message);
    throw error;
  }
}

export const copy = command(
  "copy",
  "copy a SQLite installation into an empty PostgreSQL database, checked table by table",
  {
    from: { type: "string", help: "SQLite database file (opened read only; stop the server first)", required: true },
    to: { type: "string", help: "postgres://user:password@host:5432/database, empty or new", required: true },
    storage: {
      type: "string",
      help: "the attachments directory the source uses (env PARLEY_STORAGE, default <from>.files)",
    },
    json: jsonFlag,
  },
  async (f, io) => {
    const url = postgresUrl("to", f.to!);
    // Where attachments are, read before anything is copied (a bad PARLEY_STORAGE stops it here).
    const files = loadConfig({ db: f.from, storage: f.storage }).files;
    const source = openSource(f.from!);
    try {
      const { CopyRefusedError, copyToPostgres } = await import("../db/copy-to-postgres.ts");
      const { postgresSchemaVersion } = await import("../db/migrate-postgres.ts");
      const target = await connect(url);
      try {
        // The copy migrates the target first, and says what it applied.
        const report = await copyToPostgres(source, target).catch((error) => {
          if (!(error instanceof CopyRefusedError)) throw error;
          io.err(`parley copy: ${error.message}`);
          return null;
        });
        if (!report) return 2;
        const applied = report.migrationsApplied;
        const tables = Object.fromEntries(report.tables.map((t) => [t.name, t.rows]));
        const rows = report.tables.reduce((n, t) => n + t.rows, 0);
        const version = await postgresSchemaVersion(target);
        if (f.json) {
          io.out(
            JSON.stringify({
              schema_version: version,
              migrations_applied: applied,
              tables,
              rows,
              nul_characters_removed: report.nulsRemoved,
              files_copied: false,
            }),
          );
          return 0;
        }
        io.out(`PostgreSQL ${migrationSummary(applied, version)}`);
        io.out(`copied ${rows} rows in ${report.tables.length} tables to ${where(url)}; counts and checksums match:`);
        for (const t of report.tables) io.out(`  ${t.name.padEnd(34)} ${t.rows}`);
        const nuls = Object.entries(report.nulsRemoved);
        if (nuls.length)
          io.out(
            `NUL characters, which PostgreSQL text cannot hold, were left out of ${nuls.reduce((n, [, v]) => n + v, 0)} values: ${nuls.map(([c, n]) => `${c} (${n})`).join(", ")}`,
          );
        io.out(
          `attachment files are not copied: the rows refer to them where they are (${files.s3 ? `S3 bucket ${files.s3.bucket}` : files.dir}); keep them for the server that will run on PostgreSQL`,
        );
        return 0;
      } finally {
        await target.close();
      }
    } finally {
      source.close();
    }
  },
);

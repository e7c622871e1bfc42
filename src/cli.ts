// Subcommand dispatch. `bun src/cli.ts <command>` in development; the binary runs the same via main.ts.
import { UsageError } from "./cli/args.ts";
import { backup, bootstrap, migrateCommand, password, serve, token, version } from "./cli/commands.ts";
import type { Command, Io } from "./cli/context.ts";
import { copy } from "./cli/copy.ts";
import { platformToken } from "./cli/platform.ts";
import { seed } from "./cli/seed.ts";
import { ConfigError } from "./config.ts";
import { DatabaseTooNewError } from "./db/migrate.ts";
import { AppError } from "./domain/errors.ts";

export const COMMANDS: Command[] = [
  serve,
  bootstrap,
  migrateCommand,
  token,
  platformToken,
  password,
  seed,
  backup,
  copy,
  version,
];

function help(io: Io): number {
  io.out("parley — a Chatwoot-compatible helpdesk server in one binary\n\nUsage: parley <command> [flags]\n");
  for (const c of COMMANDS) io.out(`  ${c.name.padEnd(16)} ${c.summary}`);
  io.out(`  ${"help".padEnd(16)} show this help\n\nRun "parley <command> --help" for a command's flags.`);
  return 0;
}

const stdio: Io = { out: (l) => console.log(l), err: (l) => console.error(l) };

export async function runCli(argv: string[], io: Io = stdio): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") return help(io);
  if (name === "--version") return version.run([], io);
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    io.err(`parley: unknown command "${name}" (run "parley help")`);
    return 2;
  }
  try {
    return await cmd.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) io.err(`parley ${name}: ${error.message}`);
    else if (error instanceof AppError)
      io.err(`parley ${name}: ${error.description}: ${error.errors.map((e) => `${e.field} ${e.message}`).join("; ")}`);
    else if (error instanceof DatabaseTooNewError) io.err(`parley ${name}: ${error.message}`);
    else {
      io.err(`parley ${name}: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
    return 2;
  }
}

if (import.meta.main) process.exit(await runCli(process.argv.slice(2)));

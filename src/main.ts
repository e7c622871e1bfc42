// Entry point of the compiled binary: runs the CLI, nothing else.
import { runCli } from "./cli.ts";

const code = await runCli(process.argv.slice(2));
// serve never returns; every other command exits with its code.
process.exit(code);

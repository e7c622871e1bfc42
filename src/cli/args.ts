// Flag parsing shared by every subcommand: `--name value`, `--name=value`, boolean `--json`.
// Unknown flags and missing values are user errors with a clear message, never a stack trace.

export class UsageError extends Error {}

export type FlagSpec = Record<string, { type: "string" | "boolean"; help: string; required?: boolean }>;

export type Flags<S extends FlagSpec> = { [K in keyof S]?: S[K]["type"] extends "boolean" ? boolean : string };

export function parseFlags<S extends FlagSpec>(command: string, spec: S, argv: string[]): Flags<S> {
  const out: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--"))
      throw new UsageError(`unexpected argument "${arg}" for "${command}" (see parley ${command} --help)`);
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const def = spec[name];
    if (!def) throw new UsageError(`unknown flag --${name} for "${command}" (see parley ${command} --help)`);
    if (def.type === "boolean") {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      out[name] = true;
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith("--")) || value === "")
      throw new UsageError(`--${name} needs a value`);
    out[name] = value;
  }
  for (const [name, def] of Object.entries(spec)) {
    if (def.required && out[name] === undefined)
      throw new UsageError(`--${name} is required for "${command}" (see parley ${command} --help)`);
  }
  return out as Flags<S>;
}

export function usage(command: string, summary: string, spec: FlagSpec): string {
  const lines = [`parley ${command} — ${summary}`, ""];
  for (const [name, def] of Object.entries(spec)) {
    const flag = def.type === "boolean" ? `--${name}` : `--${name} ${name.toUpperCase()}`;
    lines.push(`  ${flag.padEnd(26)} ${def.help}${def.required ? " (required)" : ""}`);
  }
  return lines.join("\n");
}

/** A whole number ≥ min from a flag, or a UsageError naming the flag. */
export function intFlag(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new UsageError(`--${name} must be a whole number ≥ ${min}, got "${value}"`);
  return Number(value);
}

// The CLI's output captured instead of printed: what runCli's tests read.
import type { Io } from "../../src/cli/context.ts";

export function capture(): { io: Io; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => void out.push(l), err: (l: string) => void err.push(l) }, out, err };
}

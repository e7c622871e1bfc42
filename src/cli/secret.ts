// Reading a secret for `parley password`: typed at a terminal without echo (asked twice), or the
// first line of piped stdin for scripts. Never a flag by default: flags show up in `ps` and shell history.
import { UsageError } from "./args.ts";

export async function readSecret(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) return firstLine(await Bun.stdin.text());
  const first = await promptHidden(prompt);
  const again = await promptHidden("Repeat it: ");
  if (first !== again) throw new UsageError("the two passwords differ; nothing changed");
  return first;
}

export function firstLine(text: string): string {
  return text.split(/\r?\n/, 1)[0] ?? "";
}

function promptHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  // Echo off before the prompt shows, so nothing typed right after it is echoed.
  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.resume();
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let chars: string[] = [];
    const finish = () => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write("\n");
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") return (finish(), resolve(chars.join("")));
        if (ch === "\u0003" || ch === "\u0004") return (finish(), reject(new UsageError("cancelled; nothing changed")));
        if (ch === "\u007f" || ch === "\b") chars = chars.slice(0, -1);
        else chars.push(ch);
      }
    };
    stdin.on("data", onData);
  });
}

// "Carla is typing…" under the thread, in a polite live region so screen readers hear it too.
import { typists } from "../../lib/typing.ts";

function sentence(names: string[]): string {
  if (names.length === 0) return "";
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are typing…`;
  return `${names[0]} and ${names.length - 1} others are typing…`;
}

export function TypingLine() {
  return (
    <p class="typing-line" role="status" aria-live="polite">
      {sentence(typists.value)}
    </p>
  );
}

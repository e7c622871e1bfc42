// "Carla is typing…" under the thread, in a polite live region so screen readers hear it too.
import { typists } from "../../lib/typing.ts";
import { t } from "../../lib/i18n.ts";

function sentence(names: string[]): string {
  if (names.length === 0) return "";
  if (names.length === 1) return t("typing.single", { name: names[0]! });
  if (names.length === 2) return t("typing.pair", { first: names[0]!, second: names[1]! });
  return t("typing.several", { first: names[0]!, others: names.length - 1 });
}

export function TypingLine() {
  return (
    <p class="typing-line" role="status" aria-live="polite">
      {sentence(typists.value)}
    </p>
  );
}

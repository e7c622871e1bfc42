// The API answers field errors in English (Chatwoot's wording, which clients match on). The forms
// show the most frequent ones in the user's language; any other message is shown as the server wrote it.
import { t } from "./i18n.ts";

const KNOWN: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^can't be blank$/, () => t("errors.blank")],
  [/^(has already been taken|should be unique)$/, () => t("errors.taken")],
  [/^is not a valid email address$/, () => t("errors.email")],
  [/^is too long \(maximum is (\d+) characters\)$/, (m) => t("errors.too_long", { max: m[1]! })],
  [/^must be an http or https URL$/, () => t("errors.url")],
  [/^should be in e164 format/, () => t("errors.phone")],
  [/^must be a port number between 1 and 65535$/, () => t("errors.port")],
  [/^must be true or false$/, () => t("errors.boolean")],
];

export function localMessage(message: string): string {
  for (const [pattern, say] of KNOWN) {
    const m = pattern.exec(message);
    if (m) return say(m);
  }
  return message;
}

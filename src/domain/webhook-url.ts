// Save-time checks of webhook URLs (account webhooks, API inbox callbacks, automation webhooks).
import { InvalidTargetError, MAX_WEBHOOK_URL_LENGTH, parseTargetUrl } from "../lib/ssrf.ts";
import { ValidationError } from "./errors.ts";

/**
 * Save-time check for a webhook URL: shape only. Address checks need DNS and happen at delivery time,
 * because records change after a URL is saved. Returns the URL unchanged.
 */
export function validateWebhookUrl(url: unknown, field = "url"): string {
  if (url === undefined || url === null || (typeof url === "string" && url.trim() === "")) {
    throw ValidationError.of(field, "can't be blank", "required");
  }
  if (typeof url !== "string") throw ValidationError.of(field, "must be a string", "invalid");
  if (url.length > MAX_WEBHOOK_URL_LENGTH) {
    throw ValidationError.of(field, `is too long (maximum is ${MAX_WEBHOOK_URL_LENGTH} characters)`, "too_long");
  }
  // The URL parser silently drops tabs/newlines and trims spaces, so the stored string would not be
  // the URL that gets called; refuse them instead.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  if (/[\s\0-\x1f\x7f]/.test(url))
    throw ValidationError.of(field, "must not contain spaces or control characters", "invalid");
  try {
    parseTargetUrl(url);
  } catch (e) {
    throw ValidationError.of(field, e instanceof InvalidTargetError ? e.message : "is invalid", "invalid");
  }
  return url;
}

// Small value checks shared by every service. Each adds to a FieldErrors collector so a request
// with several bad fields gets one error item per field.
import { ValidationError, type FieldErrors } from "./errors.ts";

// Deliberately simple: one @, something on both sides, a dot in the domain, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// E.164: a plus, then 2 to 15 digits, the first 1-9 (Chatwoot's rule).
const E164 = /^\+[1-9]\d{1,14}$/;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

export function isE164(value: string): boolean {
  return E164.test(value);
}

// What people type between the digits of a number written with its country code.
const PHONE_PUNCTUATION = /[\s\-().]/g;

/** What the phone-number errors say, so a person knows what to type. */
export const E164_HINT = "should be in e164 format: a + and the country code, then the number (e.g. +14155550100)";

/**
 * A phone number in E.164 where that is unambiguous: "+351 912 000 111", "+1 (415) 555-0100" and
 * "+44.20.7946.0958" become "+351912000111" and so on. A number without its leading + and country code
 * is left as typed (and refused): "(415) 555-0100" could be any country's.
 */
export function normalisePhone(value: string): string {
  if (!value.startsWith("+")) return value;
  const digits = value.replace(PHONE_PUNCTUATION, "");
  return isE164(digits) ? digits : value;
}

/** A required, trimmed, non-empty string of at most `max` characters; returns it or undefined. */
export function requiredString(errors: FieldErrors, field: string, value: unknown, max = 255): string | undefined {
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) {
    errors.add(field, "can't be blank", "required");
    return undefined;
  }
  return optionalString(errors, field, value, max) ?? undefined;
}

/** An optional string: undefined when absent, null when explicitly null or empty. */
export function optionalString(
  errors: FieldErrors,
  field: string,
  value: unknown,
  max = 255,
): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== "string") {
    errors.add(field, "must be a string", "invalid");
    return undefined;
  }
  const trimmed = value.trim();
  if (trimmed.length > max) {
    errors.add(field, `is too long (maximum is ${max} characters)`, "too_long");
    return undefined;
  }
  return trimmed === "" ? null : trimmed;
}

/** Lower-cases and checks an email; returns it, or undefined after recording the error. */
export function emailValue(
  errors: FieldErrors,
  field: string,
  value: unknown,
  required: boolean,
): string | null | undefined {
  const s = required ? requiredString(errors, field, value, 254) : optionalString(errors, field, value, 254);
  if (s === undefined || s === null) return s;
  if (!isEmail(s)) {
    errors.add(field, "is not a valid email address", "invalid");
    return undefined;
  }
  return s.toLowerCase();
}

export function oneOf<T extends string>(
  errors: FieldErrors,
  field: string,
  value: unknown,
  allowed: readonly T[],
): T | undefined {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  errors.add(field, `must be one of: ${allowed.join(", ")}`, "invalid");
  return undefined;
}

/** Longest search text accepted: far above any name, email or sentence fragment someone types. */
export const SEARCH_TERM_MAX = 500;

/**
 * A search box's text, trimmed; null when absent or blank. A NUL character (which SQLite's FTS
 * query parser reads as the end of the string) or more than SEARCH_TERM_MAX characters is a 422,
 * so no search text reaches SQL that it cannot answer.
 */
export function searchTerm(field: string, value: unknown): string | null {
  const term = typeof value === "string" ? value.trim() : "";
  if (!term) return null;
  if (term.includes("\0")) throw ValidationError.of(field, "must not contain NUL characters", "invalid");
  if (term.length > SEARCH_TERM_MAX)
    throw ValidationError.of(field, `is too long (maximum is ${SEARCH_TERM_MAX} characters)`, "too_long");
  return term;
}

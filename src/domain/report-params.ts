// The query parameters every summary report shares: the time range and business_hours.
// docs/compatibility.md #13: `since` inclusive, `until` exclusive (Unix seconds); a missing `until` is now
// and a missing `since` is `until` minus 7 days. (Chatwoot answers all-zero rows when either is
// missing, and a 500 for non-numeric values; we answer a useful default range, and 422.)
// Pure module.
import { FieldErrors } from "./errors.ts";

export const DEFAULT_RANGE_SECONDS = 7 * 24 * 60 * 60;

export interface ReportRange {
  since: number;
  until: number;
}

export interface ReportQuery {
  since?: unknown;
  until?: unknown;
  business_hours?: unknown;
}

/** Unix seconds as the API sends them: an integer in a string (or a number); "" and absent = missing. */
function timestamp(errors: FieldErrors, field: string, raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === "") return null;
  const s = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (!/^-?\d{1,12}$/.test(s)) {
    errors.add(field, "must be a Unix timestamp in seconds", "invalid");
    return null;
  }
  return Number(s);
}

export function reportRange(q: ReportQuery, now: number): ReportRange {
  const errors = new FieldErrors();
  const since = timestamp(errors, "since", q.since);
  const until = timestamp(errors, "until", q.until);
  errors.throwIfAny();
  const end = until ?? now;
  const start = since ?? end - DEFAULT_RANGE_SECONDS;
  if (start >= end) errors.add("since", "must be before until", "invalid").throwIfAny();
  return { since: start, until: end };
}

// Rails' ActiveModel::Type::Boolean: these are false, blank is nil (false), anything else is true.
const FALSE_VALUES = new Set(["0", "f", "F", "false", "FALSE", "off", "OFF"]);

export function businessHoursFlag(raw: unknown): boolean {
  if (raw === undefined || raw === null || raw === "" || raw === false || raw === 0) return false;
  if (Array.isArray(raw)) return raw.length > 0; // a Rails array casts to true
  return !FALSE_VALUES.has(String(raw));
}

/** The period of the same length just before the range (the overview's `previous`). */
export function previousRange(r: ReportRange): ReportRange {
  return { since: r.since - (r.until - r.since), until: r.since };
}

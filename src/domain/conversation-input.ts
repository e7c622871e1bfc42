// Validation of conversation fields: statuses, priorities, dates, attribute objects.
import type { ConversationStatus, Priority } from "../db/conversations.repo.ts";
import { ValidationError } from "./errors.ts";

export const STATUSES = ["open", "resolved", "pending", "snoozed"] as const satisfies readonly ConversationStatus[];
export const PRIORITIES = ["low", "medium", "high", "urgent"] as const satisfies readonly Priority[];

export function statusValue(field: string, raw: unknown): ConversationStatus {
  if (typeof raw === "string" && (STATUSES as readonly string[]).includes(raw)) return raw as ConversationStatus;
  throw ValidationError.of(field, `must be one of: ${STATUSES.join(", ")}`, "invalid");
}

/** A priority, or null for "" / null (Chatwoot clears it). */
export function priorityValue(raw: unknown): Priority | null {
  if (raw === null || raw === "" || raw === undefined) return null;
  if (typeof raw === "string" && (PRIORITIES as readonly string[]).includes(raw)) return raw as Priority;
  throw ValidationError.of("priority", `must be one of: ${PRIORITIES.join(", ")} (or empty)`, "invalid");
}

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A point in time as Unix seconds. Accepts ISO 8601 (the spec's snoozed_until) and Unix seconds
 * as a number or digit string (Chatwoot's toggle_status). Null/"" = none.
 */
export function timeValue(field: string, raw: unknown): number | null {
  if (raw === null || raw === undefined || raw === "") return null;
  if (typeof raw === "number" && Number.isFinite(raw) && raw >= 0) return Math.floor(raw);
  if (typeof raw === "string") {
    const s = raw.trim();
    if (/^\d{1,12}$/.test(s)) return Number(s);
    if (ISO.test(s)) {
      const ms = Date.parse(s);
      if (Number.isFinite(ms)) return Math.floor(ms / 1000);
    }
  }
  throw ValidationError.of(field, "must be an ISO 8601 date-time or Unix seconds", "invalid");
}

/** A free-form JSON object, or undefined when absent. */
export function objectValue(field: string, raw: unknown): Record<string, unknown> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== "object" || Array.isArray(raw)) throw ValidationError.of(field, "must be an object", "invalid");
  return raw as Record<string, unknown>;
}

/** An optional id from a body: undefined absent, null for null/""/0 (clear), else a positive integer. */
export function optionalId(field: string, raw: unknown): number | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || raw === "" || raw === 0 || raw === "0") return null;
  const n =
    typeof raw === "number" ? raw : typeof raw === "string" && /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw ValidationError.of(field, "must be a positive integer", "invalid");
  return n;
}

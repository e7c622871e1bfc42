// The public API's answer to a message: `submitted_values`, an object or an
// array of objects. Each object keeps only name, title, value and csat_survey_response
// {rating, feedback_message}, as Chatwoot's permitted parameters do; a CSAT rating must be a whole
// number from 1 to 5. Pure: the service stores what this returns.
import { FieldErrors } from "./errors.ts";

export const MAX_ITEMS = 100;
export const MAX_VALUE_LENGTH = 10_000;
const SCALAR_KEYS = ["name", "title", "value"] as const;

export interface CsatAnswer {
  rating: number;
  feedback_message: string | null;
}

export type SubmittedItem = Record<string, unknown>;

export interface SubmittedValues {
  /** What content_attributes.submitted_values becomes. */
  values: SubmittedItem | SubmittedItem[];
  /** The CSAT answer it carries, if any (the object's, or the first item's that has one). */
  csat: CsatAnswer | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function scalar(errors: FieldErrors, field: string, v: unknown): unknown {
  if (typeof v === "string" && v.length > MAX_VALUE_LENGTH) {
    errors.add(field, `is too long (maximum is ${MAX_VALUE_LENGTH} characters)`, "too_long");
    return undefined;
  }
  // Rails keeps permitted scalars as they are and drops anything structured.
  return v === null || ["string", "number", "boolean"].includes(typeof v) ? v : undefined;
}

function rating(errors: FieldErrors, field: string, v: unknown): number | undefined {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (v === undefined || v === null || v === "") errors.add(field, "can't be blank", "required");
  else if (!Number.isInteger(n) || n < 1 || n > 5) errors.add(field, "must be a whole number from 1 to 5", "invalid");
  else return n;
  return undefined;
}

function csatAnswer(errors: FieldErrors, field: string, v: unknown): CsatAnswer | undefined {
  if (!isObject(v)) {
    errors.add(field, "must be an object with rating and feedback_message", "invalid");
    return undefined;
  }
  const r = rating(errors, `${field}.rating`, v.rating);
  let feedback: string | null = null;
  if (v.feedback_message !== undefined && v.feedback_message !== null) {
    if (typeof v.feedback_message !== "string") errors.add(`${field}.feedback_message`, "must be a string", "invalid");
    else if (v.feedback_message.length > MAX_VALUE_LENGTH)
      errors.add(`${field}.feedback_message`, `is too long (maximum is ${MAX_VALUE_LENGTH} characters)`, "too_long");
    else feedback = v.feedback_message;
  }
  return r === undefined ? undefined : { rating: r, feedback_message: feedback };
}

function item(
  errors: FieldErrors,
  field: string,
  raw: Record<string, unknown>,
): { item: SubmittedItem; csat: CsatAnswer | null } {
  const out: SubmittedItem = {};
  for (const key of SCALAR_KEYS) {
    if (!(key in raw)) continue;
    const v = scalar(errors, `${field}.${key}`, raw[key]);
    if (v !== undefined) out[key] = v;
  }
  let csat: CsatAnswer | null = null;
  if (raw.csat_survey_response !== undefined) {
    csat = csatAnswer(errors, `${field}.csat_survey_response`, raw.csat_survey_response) ?? null;
    if (csat) out.csat_survey_response = { feedback_message: csat.feedback_message, rating: csat.rating };
  }
  return { item: out, csat };
}

/** undefined when the body carries no submitted_values (nothing to change); throws 422 on bad values. */
export function cleanSubmittedValues(raw: unknown): SubmittedValues | undefined {
  if (raw === undefined || raw === null) return undefined;
  const errors = new FieldErrors();
  const field = "submitted_values";
  let result: SubmittedValues | undefined;
  if (isObject(raw)) {
    const one = item(errors, field, raw);
    result = { values: one.item, csat: one.csat };
  } else if (Array.isArray(raw)) {
    if (raw.length > MAX_ITEMS) errors.add(field, `has too many items (maximum is ${MAX_ITEMS})`, "too_long");
    const items = raw.flatMap((v, i) => (isObject(v) ? [item(errors, `${field}.${i}`, v)] : []));
    result = { values: items.map((i) => i.item), csat: items.find((i) => i.csat)?.csat ?? null };
  } else {
    errors.add(field, "must be an object or an array of objects", "invalid");
  }
  errors.throwIfAny();
  return result;
}

/** Chatwoot locks a CSAT answer once more than 14 calendar days (UTC) separate the survey and today. */
export const CSAT_EDIT_DAYS = 14;

export function csatLocked(surveyCreatedAt: number, now: number): boolean {
  return Math.floor(now / 86_400) - Math.floor(surveyCreatedAt / 86_400) > CSAT_EDIT_DAYS;
}

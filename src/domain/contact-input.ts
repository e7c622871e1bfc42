// Validation of contact fields (Chatwoot's Contact model rules) and of list/search parameters.
import type { ContactFields, ContactRow } from "../db/contacts.repo.ts";
import { CONTACT_SORTS, type ContactSort, type ContactSortColumn } from "../db/contacts-search.ts";
import { FieldErrors, ValidationError } from "./errors.ts";
import { E164_HINT, emailValue, isE164, normalisePhone, optionalString } from "./validate.ts";

export interface ContactInput {
  name?: unknown;
  email?: unknown;
  phone_number?: unknown;
  identifier?: unknown;
  blocked?: unknown;
  avatar_url?: unknown;
  additional_attributes?: unknown;
  custom_attributes?: unknown;
}

export const EMPTY_CONTACT: ContactFields = {
  name: "",
  email: null,
  phone_number: null,
  identifier: null,
  company_name: null,
  blocked: 0,
  avatar_url: null,
  additional_attributes: "{}",
  custom_attributes: "{}",
};

function objectValue(errors: FieldErrors, field: string, value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    errors.add(field, "must be an object", "invalid");
    return undefined;
  }
  return value as Record<string, unknown>;
}

/**
 * The fields after applying the input to `current`: absent keys keep their value; attribute
 * objects are merged into the existing ones (Chatwoot's update). Throws one 422 item per bad field.
 */
export function contactFields(input: ContactInput, current: ContactFields): ContactFields {
  const errors = new FieldErrors();
  const next = { ...current };
  const name = optionalString(errors, "name", input.name, 255);
  if (name !== undefined) next.name = name ?? "";
  const email = emailValue(errors, "email", input.email, false);
  if (email !== undefined) next.email = email;
  const typed = optionalString(errors, "phone_number", input.phone_number, 32);
  const phone = typed ? normalisePhone(typed) : typed;
  if (phone !== undefined) {
    if (phone !== null && !isE164(phone)) errors.add("phone_number", E164_HINT, "invalid");
    else next.phone_number = phone;
  }
  const identifier = optionalString(errors, "identifier", input.identifier, 255);
  if (identifier !== undefined) next.identifier = identifier;
  if (input.blocked !== undefined) {
    if (typeof input.blocked !== "boolean") errors.add("blocked", "must be true or false", "invalid");
    else next.blocked = input.blocked ? 1 : 0;
  }
  const avatar = optionalString(errors, "avatar_url", input.avatar_url, 2048);
  if (avatar !== undefined) next.avatar_url = avatar;
  const additional = objectValue(errors, "additional_attributes", input.additional_attributes);
  if (additional)
    next.additional_attributes = JSON.stringify({
      ...(JSON.parse(current.additional_attributes) as object),
      ...additional,
    });
  const custom = objectValue(errors, "custom_attributes", input.custom_attributes);
  if (custom)
    next.custom_attributes = JSON.stringify({ ...(JSON.parse(current.custom_attributes) as object), ...custom });
  errors.throwIfAny();
  const company = (JSON.parse(next.additional_attributes) as Record<string, unknown>).company_name;
  next.company_name = typeof company === "string" && company.trim() !== "" ? company.trim() : null;
  return next;
}

export function fieldsOf(row: ContactRow): ContactFields {
  const {
    name,
    email,
    phone_number,
    identifier,
    company_name,
    blocked,
    avatar_url,
    additional_attributes,
    custom_attributes,
  } = row;
  return {
    name,
    email,
    phone_number,
    identifier,
    company_name,
    blocked,
    avatar_url,
    additional_attributes,
    custom_attributes,
  };
}

/** Chatwoot: a non-numeric or non-positive page is page 1. */
export function pageNumber(raw: unknown): number {
  const n =
    typeof raw === "number" ? raw : typeof raw === "string" && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? Math.min(n, 1_000_000) : 1;
}

/** `name`, `-name`, …; anything else is a 422 (docs/compatibility.md #10 keeps Chatwoot's list, refuses the rest). */
export function contactSort(raw: unknown): ContactSort | null {
  if (raw === undefined || raw === null || raw === "") return null;
  const value = typeof raw === "string" ? raw.trim() : "";
  const desc = value.startsWith("-");
  const column = desc ? value.slice(1) : value;
  if (!(CONTACT_SORTS as readonly string[]).includes(column)) {
    throw ValidationError.of(
      "sort",
      `must be one of: ${CONTACT_SORTS.flatMap((s) => [s, `-${s}`]).join(", ")}`,
      "invalid",
    );
  }
  return { column: column as ContactSortColumn, desc };
}

/** Free-form label titles: trimmed, blanks dropped, duplicates removed, order kept. */
export function labelTitles(field: string, raw: unknown): string[] {
  const list =
    raw === undefined || raw === null ? [] : Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",") : null;
  if (list === null || list.some((l) => typeof l !== "string"))
    throw ValidationError.of(field, "must be an array of strings", "invalid");
  const out: string[] = [];
  for (const l of list as string[]) {
    const t = l.trim();
    if (t.length > 255)
      throw ValidationError.of(field, "is too long (maximum is 255 characters per label)", "too_long");
    if (t && !out.includes(t)) out.push(t);
  }
  return out;
}

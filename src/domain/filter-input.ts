// Reads Chatwoot's filter payload (`[{attribute_key, filter_operator, values, query_operator,
// custom_attribute_type?}]`) into validated conditions for src/db/filter-sql.ts. Anything the
// catalogue does not know, or a value of the wrong type, is a 422 naming the item
// (`payload.1.filter_operator`, like the schema's own field names), before any SQL is built.
import type { FilterCompare, FilterCondition, FilterOp, FilterValue } from "../db/filter-sql.ts";
import {
  CONVERSATION_PRIORITIES,
  CONVERSATION_STATUSES,
  FILTER_OPERATORS as AUTOMATION_OPERATORS,
} from "../shared/automation-conditions.ts";
import { FieldErrors } from "./errors.ts";

/** The record filters' operators: the automation catalogue's, less the automation-only ones. */
export const FILTER_OPERATORS = AUTOMATION_OPERATORS.filter(
  (op): op is Exclude<(typeof AUTOMATION_OPERATORS)[number], "starts_with" | "attribute_changed"> =>
    op !== "starts_with" && op !== "attribute_changed",
);
type Operator = (typeof FILTER_OPERATORS)[number];

/** What an attribute holds, which decides its operators and how its values are read. */
type Kind = "text" | "phone" | "exact_text" | "id" | "number" | "date" | "boolean" | "status" | "priority" | "labels";

const OPERATORS: Record<Kind, readonly Operator[]> = {
  text: ["equal_to", "not_equal_to", "contains", "does_not_contain", "is_present", "is_not_present"],
  phone: ["equal_to", "not_equal_to", "contains", "does_not_contain", "is_present", "is_not_present"],
  exact_text: ["equal_to", "not_equal_to", "contains", "does_not_contain", "is_present", "is_not_present"],
  id: ["equal_to", "not_equal_to", "is_present", "is_not_present"],
  number: ["equal_to", "not_equal_to", "is_greater_than", "is_less_than"],
  date: ["is_greater_than", "is_less_than", "days_before"],
  boolean: ["equal_to", "not_equal_to"],
  status: ["equal_to", "not_equal_to"],
  priority: ["equal_to", "not_equal_to", "is_present", "is_not_present"],
  labels: ["equal_to", "not_equal_to", "is_present", "is_not_present"],
};

export const CONTACT_ATTRIBUTES: Record<string, Kind> = {
  name: "text",
  email: "text",
  phone_number: "phone",
  identifier: "exact_text",
  country_code: "text",
  city: "text",
  company: "text",
  created_at: "date",
  last_activity_at: "date",
  blocked: "boolean",
  labels: "labels",
};

export const CONVERSATION_ATTRIBUTES: Record<string, Kind> = {
  status: "status",
  assignee_id: "id",
  inbox_id: "id",
  team_id: "id",
  priority: "priority",
  display_id: "number",
  campaign_id: "id",
  labels: "labels",
  browser_language: "text",
  created_at: "date",
  last_activity_at: "date",
  referer: "text",
};

const STATUSES: readonly string[] = CONVERSATION_STATUSES;
const PRIORITIES: readonly string[] = CONVERSATION_PRIORITIES;
const CUSTOM_KEY = /^[A-Za-z0-9_-]{1,100}$/;
const MAX_CONDITIONS = 50;
const MAX_VALUES = 100;
const DAY = 86_400;

const OP: Record<Operator, FilterOp> = {
  equal_to: "in",
  not_equal_to: "not_in",
  contains: "like_any",
  does_not_contain: "not_like_all",
  is_present: "present",
  is_not_present: "absent",
  is_greater_than: "gt",
  is_less_than: "lt",
  days_before: "lt",
};

type Item = Record<string, unknown>;

/**
 * Validates a filter payload for one model. `nowSeconds` anchors `days_before`. All problems are
 * reported together, each naming its item.
 */
export function filterConditions(
  raw: unknown,
  attributes: Record<string, Kind>,
  customModel: string,
  nowSeconds: number,
): FilterCondition[] {
  const errors = new FieldErrors();
  if (!Array.isArray(raw) || raw.length === 0) {
    errors
      .add("payload", "must be a non-empty array of filter conditions", raw === undefined ? "required" : "invalid")
      .throwIfAny();
  }
  const items = raw as unknown[];
  if (items.length > MAX_CONDITIONS)
    errors.add("payload", `may hold at most ${MAX_CONDITIONS} conditions`, "too_long").throwIfAny();
  const out: FilterCondition[] = [];
  items.forEach((item, i) => {
    const c = condition(errors, `payload.${i}`, item, attributes, customModel, nowSeconds);
    if (c) out.push(c);
  });
  errors.throwIfAny("Invalid filter");
  return out;
}

function condition(
  errors: FieldErrors,
  at: string,
  item: unknown,
  attributes: Record<string, Kind>,
  customModel: string,
  now: number,
): FilterCondition | null {
  if (item === null || typeof item !== "object" || Array.isArray(item)) {
    errors.add(at, "must be an object with attribute_key, filter_operator and values", "invalid");
    return null;
  }
  const it = item as Item;
  const join = joinOf(errors, at, it.query_operator);
  const key = it.attribute_key;
  const customType = it.custom_attribute_type;
  if (customType !== undefined && customType !== null && customType !== "" && customType !== customModel) {
    errors.add(`${at}.custom_attribute_type`, `must be ${customModel} here`, "invalid");
    return null;
  }
  // Custom attributes are named as such (Chatwoot's clients send custom_attribute_type with them).
  const custom = customType === customModel;
  if (
    typeof key !== "string" ||
    key === "" ||
    (!custom && !Object.hasOwn(attributes, key)) ||
    (custom && !CUSTOM_KEY.test(key))
  ) {
    errors.add(
      `${at}.attribute_key`,
      `Invalid attribute key - ${typeof key === "string" ? key : JSON.stringify(key)}`,
      "invalid",
    );
    return null;
  }
  const operator = it.filter_operator;
  if (typeof operator !== "string" || !(FILTER_OPERATORS as readonly string[]).includes(operator)) {
    errors.add(
      `${at}.filter_operator`,
      `Invalid operator - ${String(operator)}; one of ${FILTER_OPERATORS.join(", ")}`,
      "invalid",
    );
    return null;
  }
  const op = operator as Operator;
  const kind: Kind | "custom" = custom ? "custom" : attributes[key]!;
  if (kind !== "custom" && !OPERATORS[kind].includes(op)) {
    errors.add(
      `${at}.filter_operator`,
      `${op} does not apply to ${key}; use one of ${OPERATORS[kind].join(", ")}`,
      "invalid",
    );
    return null;
  }
  const read = readValues(errors, `${at}.values`, key, kind, op, it.values, now);
  if (!read || !join) return null;
  return { attribute: key, custom, op: OP[op], compare: read.compare, values: read.values, join };
}

function joinOf(errors: FieldErrors, at: string, raw: unknown): "AND" | "OR" | null {
  if (raw === undefined || raw === null || raw === "") return "AND";
  if (typeof raw === "string" && ["AND", "OR"].includes(raw.toUpperCase())) return raw.toUpperCase() as "AND" | "OR";
  errors.add(`${at}.query_operator`, "Invalid query operator; use AND or OR", "invalid");
  return null;
}

function list(raw: unknown): unknown[] | null {
  if (Array.isArray(raw)) return raw;
  if (typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean") return [raw];
  return null;
}

/** A date value (YYYY-MM-DD or an ISO time) or Unix seconds → Unix seconds. */
function seconds(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return Math.floor(v);
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v.trim())) return null;
  const ms = Date.parse(v.trim().length === 10 ? `${v.trim()}T00:00:00Z` : v.trim());
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

function integer(v: unknown): number | null {
  if (typeof v === "number" && Number.isSafeInteger(v)) return v;
  if (typeof v === "string" && /^-?\d{1,15}$/.test(v.trim())) return Number(v.trim());
  return null;
}

function readValues(
  errors: FieldErrors,
  field: string,
  key: string,
  kind: Kind | "custom",
  op: Operator,
  raw: unknown,
  now: number,
): { compare: FilterCompare; values: FilterValue[] } | null {
  if (op === "is_present" || op === "is_not_present")
    return { compare: kind === "labels" ? "labels" : kind === "text" ? "text" : "exact", values: [] };
  const values = list(raw);
  if (!values || values.length === 0) {
    errors.add(field, `must list at least one value for ${key}`, raw === undefined ? "required" : "invalid");
    return null;
  }
  if (values.length > MAX_VALUES) {
    errors.add(field, `may list at most ${MAX_VALUES} values`, "too_long");
    return null;
  }
  const bad = (what: string) => (errors.add(field, `${key} takes ${what}`, "invalid"), null);
  if (op === "days_before") {
    const n = integer(values[0]);
    if (n === null || n < 0) return bad("a whole number of days");
    return { compare: "number", values: [now - n * DAY] };
  }
  if (op === "is_greater_than" || op === "is_less_than") {
    if (kind === "date" || (kind === "custom" && typeof values[0] === "string")) {
      const s = seconds(values[0]);
      if (s === null) return bad("a date (YYYY-MM-DD)");
      // Custom date attributes are stored as the text clients sent; compare them as text.
      return kind === "custom"
        ? { compare: "exact", values: [String(values[0]).trim()] }
        : { compare: "number", values: [s] };
    }
    const n = typeof values[0] === "number" ? values[0] : integer(values[0]);
    if (n === null || !Number.isFinite(n)) return bad("a number");
    return { compare: "number", values: [n] };
  }
  if (values.some((v) => v === null || typeof v === "object" || (typeof v === "string" && v.length > 255)))
    return bad("strings or numbers (at most 255 characters each)");
  switch (kind) {
    case "text":
      return { compare: "text", values: values.map(String) };
    case "exact_text":
      return { compare: op === "contains" || op === "does_not_contain" ? "text" : "exact", values: values.map(String) };
    case "phone": {
      if (op === "contains" || op === "does_not_contain") return { compare: "text", values: values.map(String) };
      // Stored in E.164 with its "+"; Evolution API looks numbers up without it.
      const forms = values.flatMap((v) => {
        const digits = String(v).trim().replace(/^\+/, "");
        return [`+${digits}`, digits];
      });
      return { compare: "exact", values: forms };
    }
    case "id":
    case "number": {
      const ids = values.map(integer);
      if (ids.some((n) => n === null)) return bad("whole numbers");
      return { compare: "exact", values: ids as number[] };
    }
    case "boolean": {
      const flags = values.map((v) => (v === true || v === "true" ? 1 : v === false || v === "false" ? 0 : null));
      if (flags.some((f) => f === null)) return bad("true or false");
      return { compare: "exact", values: flags as number[] };
    }
    case "status": {
      const list = values.map(String);
      if (list.includes("all")) return { compare: "exact", values: [...STATUSES] };
      if (list.some((s) => !STATUSES.includes(s))) return bad(`statuses: ${STATUSES.join(", ")} or all`);
      return { compare: "exact", values: list };
    }
    case "priority": {
      const list = values.map(String);
      if (list.some((s) => !PRIORITIES.includes(s))) return bad(`priorities: ${PRIORITIES.join(", ")}`);
      return { compare: "exact", values: list };
    }
    case "labels":
      return { compare: "labels", values: values.map(String) };
    case "date":
      return bad("is_greater_than, is_less_than or days_before");
    case "custom": {
      // Without a definition the values' own JSON types decide: numbers and booleans match exactly, text in any case.
      if (values.every((v) => typeof v === "boolean"))
        return { compare: "exact", values: values.map((v) => (v ? 1 : 0)) };
      if (values.every((v) => typeof v === "number")) return { compare: "exact", values: values as number[] };
      return {
        compare:
          op === "equal_to" || op === "not_equal_to" || op === "contains" || op === "does_not_contain"
            ? "text"
            : "exact",
        values: values.map(String),
      };
    }
  }
}

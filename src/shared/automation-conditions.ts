// What an automation rule's conditions may say: the attribute catalogue (where each key's value lives,
// its type, the operators it accepts) and the shape check of one condition. The validator
// (automation-catalogue.ts) and the matcher (automation-match.ts) both use checkCondition, so a rule
// that saves is exactly a rule that can be evaluated, and a rule stored some other way (an old row, a
// hand-edited database) is caught at run time with the same words.
//
// Chatwoot's runtime table (lib/filters/filter_keys.yml, summarised in chatwoot-behaviour.md §9.2) is the
// base. Every rule Chatwoot can evaluate is accepted here; the additions are listed in the catalogue's
// comments (presence checks on nullable keys, contains on labels, attribute_changed on conversation
// keys, the derived idle_minutes key).

export const FILTER_OPERATORS = [
  "equal_to",
  "not_equal_to",
  "contains",
  "does_not_contain",
  "is_present",
  "is_not_present",
  "is_greater_than",
  "is_less_than",
  "days_before",
  "starts_with",
  "attribute_changed",
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

// Enumerations in the order of Chatwoot's stored integers, so an integer coming from a row or a
// webhook can be mapped to its name by index.
export const CONVERSATION_STATUSES = ["open", "resolved", "pending", "snoozed"] as const;
export const CONVERSATION_PRIORITIES = ["low", "medium", "high", "urgent"] as const;
export const MESSAGE_TYPES = ["incoming", "outgoing", "activity", "template"] as const;

export type AttributeSource = "conversation" | "contact" | "message" | "labels" | "derived";
/** `any` = a custom attribute: its definition is not known here, so values are compared loosely. */
export type AttributeType = "string" | "integer" | "enum" | "date" | "labels" | "any";

export interface AttributeSpec {
  key: string;
  source: AttributeSource;
  /** Where inside the source record: a column, or a key of its additional/custom attributes JSON. */
  field: "column" | "additional_attributes" | "custom_attributes";
  type: AttributeType;
  enumValues?: readonly string[];
  operators: readonly FilterOperator[];
  /** equal_to / not_equal_to compare lower-cased (content, labels, custom text — as Chatwoot does). */
  caseInsensitive: boolean;
  /** Events the key may be used with; absent = every event. */
  events?: readonly string[];
}

const EQ = ["equal_to", "not_equal_to"] as const;
const TEXT = [...EQ, "contains", "does_not_contain"] as const;
const PRESENCE = ["is_present", "is_not_present"] as const;
const DATE = ["is_greater_than", "is_less_than", "days_before"] as const;
const CHANGED = ["attribute_changed"] as const;

function spec(
  key: string,
  source: AttributeSource,
  field: AttributeSpec["field"],
  type: AttributeType,
  operators: readonly FilterOperator[],
  extra: Partial<AttributeSpec> = {},
): AttributeSpec {
  return { key, source, field, type, operators, caseInsensitive: false, ...extra };
}

// Presence operators are added to every key whose value can be null (Chatwoot offers them only on
// the id keys); they never reject a rule Chatwoot accepts. attribute_changed is offered on the
// conversation's own keys, the only ones a conversation_updated event can report as changed.
const BUILT_IN: readonly AttributeSpec[] = [
  spec("status", "conversation", "column", "enum", [...EQ, ...CHANGED], { enumValues: CONVERSATION_STATUSES }),
  spec("priority", "conversation", "column", "enum", [...EQ, ...PRESENCE, ...CHANGED], {
    enumValues: CONVERSATION_PRIORITIES,
  }),
  spec("inbox_id", "conversation", "column", "integer", [...EQ, ...PRESENCE, ...CHANGED]),
  spec("team_id", "conversation", "column", "integer", [...EQ, ...PRESENCE, ...CHANGED]),
  spec("assignee_id", "conversation", "column", "integer", [...EQ, ...PRESENCE, ...CHANGED]),
  // Labels: equal_to / contains = has any of the values; not_equal_to / does_not_contain = has none.
  spec("labels", "labels", "column", "labels", [...TEXT, ...PRESENCE], { caseInsensitive: true }),
  spec("browser_language", "conversation", "additional_attributes", "string", [...EQ, ...PRESENCE, ...CHANGED]),
  spec("conversation_language", "conversation", "additional_attributes", "string", [...EQ, ...PRESENCE, ...CHANGED]),
  spec("referer", "conversation", "additional_attributes", "string", [...TEXT, ...PRESENCE, ...CHANGED]),
  spec("mail_subject", "conversation", "additional_attributes", "string", [...TEXT, ...PRESENCE, ...CHANGED]),
  // country_code/city/company are the contact's (chatwoot-behaviour.md §9.2), read from its additional_attributes.
  spec("country_code", "contact", "additional_attributes", "string", [...EQ, ...PRESENCE]),
  spec("city", "contact", "additional_attributes", "string", [...TEXT, ...PRESENCE]),
  spec("company", "contact", "additional_attributes", "string", [...TEXT, ...PRESENCE]),
  // Chatwoot compares contact columns as stored (case-sensitive) in automation; contains ignores case.
  spec("email", "contact", "column", "string", [...TEXT, ...PRESENCE]),
  spec("phone_number", "contact", "column", "string", [...TEXT, ...PRESENCE, "starts_with"]),
  spec("name", "contact", "column", "string", [...TEXT, ...PRESENCE]),
  spec("identifier", "contact", "column", "string", [...EQ, ...PRESENCE]),
  spec("message_type", "message", "column", "enum", EQ, { enumValues: MESSAGE_TYPES }),
  // Chatwoot lower-cases both the message content and the values before comparing.
  spec("content", "message", "column", "string", [...TEXT, ...PRESENCE], { caseInsensitive: true }),
  spec("created_at", "conversation", "column", "date", DATE),
  spec("last_activity_at", "conversation", "column", "date", DATE),
  // Ours: minutes since the conversation's last activity, for the scheduler-fired conversation_idle
  // event. The rule's single idle_minutes condition also tells the scheduler which conversations to pick.
  spec("idle_minutes", "derived", "column", "integer", ["is_greater_than"], { events: ["conversation_idle"] }),
];

export const BUILT_IN_ATTRIBUTES: ReadonlyMap<string, AttributeSpec> = new Map(BUILT_IN.map((s) => [s.key, s]));

export const CUSTOM_ATTRIBUTE_TYPES = ["conversation_attribute", "contact_attribute"] as const;
export const CUSTOM_ATTRIBUTE_KEY = /^[a-zA-Z0-9_]+$/;
const ALL_BUT_CHANGED = FILTER_OPERATORS.filter((op) => op !== "attribute_changed");
const CUSTOM_CONVERSATION = spec("", "conversation", "custom_attributes", "any", FILTER_OPERATORS, {
  caseInsensitive: true,
});
const CUSTOM_CONTACT = spec("", "contact", "custom_attributes", "any", ALL_BUT_CHANGED, { caseInsensitive: true });

/**
 * The spec for an attribute key, or null if the key can be neither built in nor custom.
 * A built-in key wins whatever custom_attribute_type says (Chatwoot looks up its own keys first, and
 * its dashboard sends custom_attribute_type on every condition).
 */
export function resolveAttribute(key: unknown, customType?: unknown): AttributeSpec | null {
  if (typeof key !== "string") return null;
  const builtIn = BUILT_IN_ATTRIBUTES.get(key);
  if (builtIn) return builtIn;
  if (!CUSTOM_ATTRIBUTE_KEY.test(key)) return null;
  if (customType === undefined || customType === null || customType === "" || customType === "conversation_attribute") {
    return { ...CUSTOM_CONVERSATION, key };
  }
  if (customType === "contact_attribute") return { ...CUSTOM_CONTACT, key };
  return null;
}

export interface ConditionProblem {
  field: "attribute_key" | "filter_operator" | "values" | "custom_attribute_type";
  message: string;
  code: "required" | "invalid" | "unsupported" | "not_allowed";
}

/**
 * Problems with one condition's key, operator and values (not its query_operator, which depends on
 * its position). `event` is the rule's event when known; event-bound checks are skipped without it.
 */
export function checkCondition(condition: Record<string, unknown>, event: string | undefined): ConditionProblem[] {
  const { attribute_key: key, filter_operator: op, custom_attribute_type: customType } = condition;
  if (typeof key !== "string" || key.trim() === "") {
    return [{ field: "attribute_key", message: "can't be blank", code: "required" }];
  }
  const attr = resolveAttribute(key, customType);
  if (!attr) {
    if (CUSTOM_ATTRIBUTE_KEY.test(key)) {
      const message = `must be one of: ${CUSTOM_ATTRIBUTE_TYPES.join(", ")}`;
      return [{ field: "custom_attribute_type", message, code: "invalid" }];
    }
    return [{ field: "attribute_key", message: `Attribute key ${key} is not supported`, code: "unsupported" }];
  }
  if (attr.events && event !== undefined && !attr.events.includes(event)) {
    const message = `${key} can only be used with the ${attr.events.join(", ")} event`;
    return [{ field: "attribute_key", message, code: "not_allowed" }];
  }
  if (typeof op !== "string" || op === "") {
    return [{ field: "filter_operator", message: "can't be blank", code: "required" }];
  }
  if (!(FILTER_OPERATORS as readonly string[]).includes(op)) {
    return [{ field: "filter_operator", message: `Filter operator ${op} is not supported`, code: "unsupported" }];
  }
  const operator = op as FilterOperator;
  if (!attr.operators.includes(operator)) {
    const message = `${op} cannot be used with ${key} (allowed: ${attr.operators.join(", ")})`;
    return [{ field: "filter_operator", message, code: "not_allowed" }];
  }
  if (operator === "attribute_changed" && event !== undefined && event !== "conversation_updated") {
    const message = "attribute_changed can only be used with the conversation_updated event";
    return [{ field: "filter_operator", message, code: "not_allowed" }];
  }
  const valueProblem = checkValues(attr, operator, condition.values);
  return valueProblem ? [{ field: "values", message: valueProblem, code: "invalid" }] : [];
}

// ---- values ---------------------------------------------------------------------------------------

/** One year: a longer wait is almost certainly a unit mistake (seconds for minutes). */
export const IDLE_MINUTES_MAX = 525_600;

const INTEGER_TEXT = /^-?\d+$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;
/** ISO 8601 date or date-time; a time without an offset is read as UTC so results never depend on the host. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An integer given as a JSON number or as digits (form bodies and the dashboard send both). */
export function toInteger(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) ? value : null;
  if (typeof value === "string" && INTEGER_TEXT.test(value.trim())) return Number(value.trim());
  return null;
}

export function toNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && NUMBER_TEXT.test(value.trim())) return Number(value.trim());
  return null;
}

/** Unix seconds from unix seconds (number or digits), an ISO 8601 string or a Date; null otherwise. */
export function toUnixSeconds(value: unknown): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime() / 1000;
  const n = toNumber(value);
  if (n !== null) return n;
  if (typeof value !== "string" || !ISO_DATE.test(value.trim())) return null;
  let text = value.trim().replace(" ", "T");
  if (text.includes("T") && !/(Z|[+-]\d{2}:?\d{2})$/.test(text)) text += "Z";
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms / 1000;
}

const isScalar = (v: unknown): boolean => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** Why one value does not fit the attribute, or null. `nil` is the spelling of "none" in attribute_changed. */
function checkOneValue(attr: AttributeSpec, operator: FilterOperator, value: unknown): string | null {
  if (operator === "attribute_changed" && (value === null || value === "nil")) return null;
  switch (attr.type) {
    case "enum":
      return typeof value === "string" && attr.enumValues?.includes(value)
        ? null
        : `must be names from: ${attr.enumValues?.join(", ")}`;
    case "integer":
      return toInteger(value) === null ? "must be integers" : null;
    case "string":
    case "labels":
      if (typeof value === "string" && value.trim() !== "") return null;
      // Numbers are fine for plain text (a phone number typed as a JSON number) but not for labels.
      return attr.type === "string" && typeof value === "number" ? null : "must be non-blank strings";
    case "date":
      return toUnixSeconds(value) === null ? "must be dates (ISO 8601 or unix seconds)" : null;
    case "any":
      return isScalar(value) ? null : "must be strings, numbers or booleans";
  }
}

function checkList(attr: AttributeSpec, operator: FilterOperator, values: unknown): string | null {
  if (!Array.isArray(values) || values.length === 0) return "must be a non-empty array";
  for (const v of values) {
    const problem = checkOneValue(attr, operator, v);
    if (problem) return problem;
  }
  return null;
}

/** Why `values` does not fit the operator and attribute, or null when it does. */
function checkValues(attr: AttributeSpec, operator: FilterOperator, values: unknown): string | null {
  switch (operator) {
    case "is_present":
    case "is_not_present":
      // Nothing to compare with; the dashboard sends [] and some clients omit the field.
      return values === undefined || values === null || Array.isArray(values) ? null : "must be an array";
    case "attribute_changed": {
      if (typeof values !== "object" || values === null || Array.isArray(values)) {
        return "must be an object {from: [...], to: [...]}";
      }
      const { from, to } = values as Record<string, unknown>;
      const problem = checkList(attr, operator, from) ?? checkList(attr, operator, to);
      return problem ? `from and to ${problem}` : null;
    }
    case "is_greater_than":
    case "is_less_than": {
      if (!Array.isArray(values) || values.length === 0) return "must be a non-empty array";
      const first: unknown = values[0];
      if (attr.key === "idle_minutes") {
        const n = toInteger(first);
        return n !== null && n >= 1 && n <= IDLE_MINUTES_MAX ? null : `must be [minutes], 1 to ${IDLE_MINUTES_MAX}`;
      }
      if (attr.type === "date")
        return toUnixSeconds(first) === null ? "must start with a date (ISO 8601 or unix seconds)" : null;
      if (attr.type === "integer") return toInteger(first) === null ? "must start with an integer" : null;
      return toNumber(first) === null && toUnixSeconds(first) === null ? "must start with a number or a date" : null;
    }
    case "days_before": {
      const n = Array.isArray(values) ? toInteger(values[0]) : null;
      return n !== null && n >= 0 ? null : "must be [days], a whole number of days";
    }
    default:
      return checkList(attr, operator, values);
  }
}

// Does an automation rule's condition list match an event? Pure: the engine gathers the facts (the
// conversation, its contact, the triggering message, labels, what changed) and calls this for every
// active rule of the event's kind, so it does no I/O and allocates little.
//
// Semantics follow Chatwoot (chatwoot-behaviour.md §9.2–9.3), which builds one SQL WHERE clause:
// - each condition's query_operator joins it to the next, without parentheses, so AND binds tighter
//   than OR: `A and B or C and D` = (A ∧ B) ∨ (C ∧ D). attribute_changed conditions take part in the
//   same expression (Chatwoot combines them with the SQL result separately; same outcome for the usual
//   "X changed and Y" rules, and one rule of precedence is easier to explain).
// - a condition on message attributes with no message at hand is false (Chatwoot's join finds no row).
// Where SQL's three-valued logic would make "not equal" false on a missing value, we answer as a person
// would: a conversation without a team is "not equal to team 3" and "does not contain" anything.

import {
  checkCondition,
  resolveAttribute,
  toInteger,
  toNumber,
  toUnixSeconds,
  type AttributeSpec,
  type FilterOperator,
} from "../shared/automation-conditions.ts";

export interface ConversationFacts {
  status: string | number;
  priority: string | number | null;
  inbox_id: number | null;
  team_id: number | null;
  assignee_id: number | null;
  additional_attributes: Record<string, unknown> | null;
  custom_attributes: Record<string, unknown> | null;
  /** Unix seconds or ISO 8601. */
  created_at: number | string;
  last_activity_at: number | string | null;
}

export interface ContactFacts {
  email: string | null;
  phone_number: string | null;
  name: string | null;
  identifier: string | null;
  additional_attributes: Record<string, unknown> | null;
  custom_attributes: Record<string, unknown> | null;
}

export interface MessageFacts {
  /** Name ("incoming", "outgoing", "activity", "template") or Chatwoot's integer. */
  message_type: string | number;
  content: string | null;
}

export interface Facts {
  conversation: ConversationFacts;
  contact: ContactFacts;
  /** The triggering message (message_created only). */
  message?: MessageFacts;
  /** Titles of the conversation's labels. */
  labels: string[];
  /**
   * conversation_updated only: keyed by attribute_key (status, assignee_id, a custom attribute key…);
   * the engine flattens additional/custom attribute changes to their own keys.
   */
  changed_attributes?: Record<string, { previous_value: unknown; current_value: unknown }>;
  /** Unix seconds; the clock is passed in so evaluation stays pure. */
  now: number;
}

type Test = (facts: Facts) => boolean;
export type CompiledConditions = { ok: true; test: Test } | { ok: false; error: string };

/** Marks "this attribute lives on a message and there is none", which fails every operator. */
const NO_ROW = Symbol("no row");

/**
 * Checks a stored condition list once and turns it into a predicate; the engine may keep the result
 * for as long as the rule is unchanged. An error means the rule cannot be evaluated at all.
 */
export function compileConditions(conditions: unknown): CompiledConditions {
  if (!Array.isArray(conditions) || conditions.length === 0) return { ok: false, error: "the rule has no conditions" };
  // Disjunctive groups: OR separates groups, AND chains conditions inside one.
  const groups: Test[][] = [[]];
  for (let i = 0; i < conditions.length; i++) {
    const c: unknown = conditions[i];
    if (typeof c !== "object" || c === null || Array.isArray(c)) {
      return { ok: false, error: `condition ${i} is not an object` };
    }
    const condition = c as Record<string, unknown>;
    const problem = checkCondition(condition, undefined)[0];
    if (problem) return { ok: false, error: `condition ${i}: ${problem.field} ${problem.message}` };
    const attr = resolveAttribute(condition.attribute_key, condition.custom_attribute_type) as AttributeSpec;
    groups[groups.length - 1]!.push(compileOne(attr, condition.filter_operator as FilterOperator, condition.values));
    // A query_operator on the last condition is ignored: the validator drops it, and old rows that kept
    // one should not be switched off for it.
    if (i === conditions.length - 1) break;
    const q = condition.query_operator;
    const join = typeof q === "string" ? q.toLowerCase() : null;
    if (join === "or") groups.push([]);
    else if (join !== "and") return { ok: false, error: `condition ${i}: query_operator must be and or or` };
  }
  return { ok: true, test: (facts) => groups.some((group) => group.every((t) => t(facts))) };
}

/** Matches, plus the reason when the rule cannot be evaluated (the engine counts those and switches the rule off). */
export function evaluateRule(conditions: unknown, facts: Facts): { matched: boolean; error: string | null } {
  const compiled = compileConditions(conditions);
  if (!compiled.ok) return { matched: false, error: compiled.error };
  return { matched: compiled.test(facts), error: null };
}

export function matchesRule(conditions: unknown, facts: Facts): boolean {
  return evaluateRule(conditions, facts).matched;
}

// ---- reading a value --------------------------------------------------------------------------------

function reader(attr: AttributeSpec): (facts: Facts) => unknown {
  const key = attr.key;
  switch (attr.source) {
    case "labels":
      return (f) => f.labels;
    case "message":
      return (f) => (f.message ? (f.message as unknown as Record<string, unknown>)[key] : NO_ROW);
    case "derived": // idle_minutes: whole minutes since the last activity (or creation).
      return (f) => {
        const since = toUnixSeconds(f.conversation.last_activity_at ?? f.conversation.created_at);
        return since === null ? null : Math.floor((f.now - since) / 60);
      };
    case "conversation":
    case "contact": {
      const source = attr.source;
      if (attr.field === "column") return (f) => (f[source] as unknown as Record<string, unknown>)[key];
      const field = attr.field;
      return (f) => (f[source][field] ?? undefined)?.[key];
    }
  }
}

// ---- comparing --------------------------------------------------------------------------------------

/** The form a value is compared in for equality; null = absent. Numbers stay numbers, text becomes text. */
function equalityForm(attr: AttributeSpec, value: unknown): string | number | null {
  if (value === null || value === undefined || value === "") return null;
  switch (attr.type) {
    case "integer":
      return toInteger(value);
    case "enum":
      // A row may hold Chatwoot's integer; the enum lists are in integer order.
      return typeof value === "number" ? (attr.enumValues?.[value] ?? null) : String(value);
    case "any": {
      // Custom attributes: "5" equals 5, "TRUE" equals true, text ignores case.
      const n = toNumber(value);
      return n !== null ? n : String(value).toLowerCase();
    }
    default:
      return attr.caseInsensitive ? String(value).toLowerCase() : String(value);
  }
}

const textOf = (value: unknown): string | null =>
  value === null || value === undefined || typeof value === "object" ? null : String(value).toLowerCase();

const isPresent = (value: unknown): boolean =>
  value !== null && value !== undefined && value !== "" && !(Array.isArray(value) && value.length === 0);

/** Numbers for number-like pairs, else unix seconds for date-like pairs; null when they do not compare. */
function ordered(attr: AttributeSpec, a: unknown, b: unknown): [number, number] | null {
  if (attr.type !== "date") {
    const x = toNumber(a);
    const y = toNumber(b);
    if (x !== null && y !== null) return [x, y];
    if (attr.type === "integer") return null;
  }
  const x = toUnixSeconds(a);
  const y = toUnixSeconds(b);
  return x !== null && y !== null ? [x, y] : null;
}

const asList = (values: unknown): unknown[] => (Array.isArray(values) ? values : []);

function compileOne(attr: AttributeSpec, operator: FilterOperator, values: unknown): Test {
  const read = reader(attr);
  const guard =
    (test: (value: unknown, facts: Facts) => boolean): Test =>
    (f) => {
      const v = read(f);
      return v !== NO_ROW && test(v, f);
    };

  if (attr.type === "labels") {
    // Label titles are lower-case in Chatwoot; compare that way whatever the rule or row says.
    const wanted = new Set(asList(values).map((v) => String(v).toLowerCase()));
    const hasAny = (v: unknown): boolean => asList(v).some((l) => wanted.has(String(l).toLowerCase()));
    switch (operator) {
      case "equal_to":
      case "contains":
        return guard(hasAny);
      case "not_equal_to":
      case "does_not_contain":
        return guard((v) => !hasAny(v));
    }
  }

  switch (operator) {
    case "equal_to":
    case "not_equal_to": {
      const wanted = new Set(asList(values).map((v) => equalityForm(attr, v)));
      const inList = (v: unknown): boolean => {
        const form = equalityForm(attr, v);
        return form !== null && wanted.has(form);
      };
      return operator === "equal_to" ? guard(inList) : guard((v) => !inList(v));
    }
    case "contains":
    case "does_not_contain":
    case "starts_with": {
      // Pattern operators ignore case, as Chatwoot's ILIKE does (its starts_with lower-cases the value too).
      const needles = asList(values)
        .map((v) => textOf(typeof v === "string" ? v.trim() : v))
        .filter((s): s is string => s !== null && s !== "");
      const hit = (v: unknown): boolean => {
        const hay = textOf(v);
        if (hay === null) return false;
        return operator === "starts_with"
          ? needles.some((n) => hay.startsWith(n))
          : needles.some((n) => hay.includes(n));
      };
      return operator === "does_not_contain" ? guard((v) => !hit(v)) : guard(hit);
    }
    case "is_present":
      return guard(isPresent);
    case "is_not_present":
      return guard((v) => !isPresent(v));
    case "is_greater_than":
    case "is_less_than": {
      const bound = asList(values)[0];
      const greater = operator === "is_greater_than";
      return guard((v) => {
        const pair = ordered(attr, v, bound);
        return pair !== null && (greater ? pair[0] > pair[1] : pair[0] < pair[1]);
      });
    }
    case "days_before": {
      // Older than N days before now (to the second; Chatwoot compares with the start of that day).
      const days = toInteger(asList(values)[0]) ?? 0;
      return guard((v, f) => {
        const t = toUnixSeconds(v);
        return t !== null && t < f.now - days * 86_400;
      });
    }
    case "attribute_changed":
      return compileChanged(attr, values);
  }
}

/** Matches when the event changed the attribute from one of `from` to one of `to`; null/"nil" mean "none". */
function compileChanged(attr: AttributeSpec, values: unknown): Test {
  const { from, to } = values as { from: unknown[]; to: unknown[] };
  const form = (v: unknown): string | number | null => (v === "nil" ? null : equalityForm(attr, v));
  const fromSet = new Set(from.map(form));
  const toSet = new Set(to.map(form));
  return (f) => {
    const change: unknown = f.changed_attributes?.[attr.key];
    if (change === undefined || change === null) return false;
    // Chatwoot's own change records are [previous, current] pairs; accept those too.
    const [previous, current] = Array.isArray(change)
      ? [change[0], change[1]]
      : [(change as Record<string, unknown>).previous_value, (change as Record<string, unknown>).current_value];
    return fromSet.has(form(previous)) && toSet.has(form(current));
  };
}

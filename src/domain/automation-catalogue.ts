// The automation rule catalogue (events here; conditions in automation-conditions.ts, actions in
// automation-actions.ts, re-exported below) and the validation of a submitted rule.
//
// Chatwoot checks little when a rule is saved (attribute keys and query operators) and finds the rest
// out when the rule runs, by failing and eventually switching the rule off. We check everything at
// save time instead, with one 422 item per problem, so a client learns about a bad rule when it can
// still fix it. Stored conditions/actions are kept as submitted apart from the normalisations below.

import { FieldErrors } from "./errors.ts";
import { checkAction, type AutomationActionName } from "../shared/automation-actions.ts";
import { checkCondition, toInteger, type FilterOperator } from "../shared/automation-conditions.ts";

export * from "../shared/automation-actions.ts";
export * from "../shared/automation-conditions.ts";
export * from "../shared/automation-events.ts";
import { AUTOMATION_EVENTS, type AutomationEvent } from "../shared/automation-events.ts";

export function isAutomationEvent(name: unknown): name is AutomationEvent {
  return typeof name === "string" && (AUTOMATION_EVENTS as readonly string[]).includes(name);
}

export interface AutomationCondition {
  attribute_key: string;
  filter_operator: FilterOperator;
  /** An array, or `{from: [...], to: [...]}` for attribute_changed; absent is allowed for presence checks. */
  values?: unknown;
  /** Joins this condition to the next one; null (or absent) on the last. */
  query_operator?: "and" | "or" | null;
  custom_attribute_type?: string | null;
}

export interface AutomationAction {
  action_name: AutomationActionName;
  action_params: unknown[];
}

export interface RuleInput {
  name?: unknown;
  description?: unknown;
  event_name?: unknown;
  conditions?: unknown;
  actions?: unknown;
  active?: unknown;
}

/** A complete rule, as a create stores it. */
export interface NormalisedRule {
  name: string;
  description: string | null;
  event_name: AutomationEvent;
  conditions: AutomationCondition[];
  actions: AutomationAction[];
  active: boolean;
}

/** An update: only the fields that were sent. */
export type RulePatch = Partial<NormalisedRule>;

export interface ValidateOptions {
  /** true for PATCH: absent fields are left alone; fields that are sent are checked as for a create. */
  partial: boolean;
  /** The stored rule, on update: lets a new event be checked against kept conditions and vice versa. */
  current?: { event_name: string; conditions: unknown };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Checks a submitted rule and returns it normalised; throws ValidationError (422) listing every problem.
 * Normalisation: query_operator lower-cased; a query_operator on the last condition is dropped (set to
 * null) because Chatwoot's dashboard always nulls it and API clients copying its payloads may not;
 * missing action_params become []; active defaults to true and description to null on create.
 */
export function validateRuleInput(input: RuleInput, options: { partial: false }): NormalisedRule;
export function validateRuleInput(input: RuleInput, options: ValidateOptions): RulePatch;
export function validateRuleInput(input: RuleInput, options: ValidateOptions): RulePatch {
  const errors = new FieldErrors();
  const out: RulePatch = {};
  const sent = (key: keyof RuleInput): boolean => !options.partial || input[key] !== undefined;

  if (sent("name")) {
    if (typeof input.name === "string" && input.name.trim() !== "") out.name = input.name;
    else if (input.name === undefined || input.name === null || typeof input.name === "string") {
      errors.add("name", "can't be blank", "required");
    } else errors.add("name", "must be a string", "invalid");
  }

  if (sent("description")) {
    const d = input.description;
    if (d === undefined || d === null || typeof d === "string") out.description = d ?? null;
    else errors.add("description", "must be a string", "invalid");
  }

  if (sent("event_name")) {
    const e = input.event_name;
    if (isAutomationEvent(e)) out.event_name = e;
    else if (e === undefined || e === null || e === "") errors.add("event_name", "can't be blank", "required");
    else
      errors.add(
        "event_name",
        `Event ${String(e)} is not supported (one of: ${AUTOMATION_EVENTS.join(", ")})`,
        "unsupported",
      );
  }
  // The event the conditions will run under; unknown when neither sent nor stored.
  const event: string | undefined = out.event_name ?? (sent("event_name") ? undefined : options.current?.event_name);

  if (sent("active")) {
    const a = input.active;
    // Form bodies carry booleans as text.
    if (typeof a === "boolean") out.active = a;
    else if (a === "true" || a === "false") out.active = a === "true";
    else if (a === undefined && !options.partial) out.active = true;
    else errors.add("active", "must be true or false", "invalid");
  }

  if (sent("conditions")) {
    const conditions = normaliseConditions(input.conditions, event, errors);
    if (conditions) {
      out.conditions = conditions;
      if (event === "conversation_idle") checkIdleRule(conditions, errors, "conditions");
    }
  } else if (out.event_name && options.current) {
    // New event, kept conditions: they must still make sense under it.
    checkKeptConditions(out.event_name, options.current.conditions, errors);
  }

  if (sent("actions")) {
    const actions = normaliseActions(input.actions, errors);
    if (actions) out.actions = actions;
  }

  errors.throwIfAny();
  return out;
}

function normaliseConditions(
  raw: unknown,
  event: string | undefined,
  errors: FieldErrors,
): AutomationCondition[] | null {
  if (!Array.isArray(raw) || raw.length === 0) {
    errors.add("conditions", "must be an array with at least one condition", raw == null ? "required" : "invalid");
    return null;
  }
  const before = errors.items.length;
  const last = raw.length - 1;
  const conditions = raw.map((c: unknown, i): AutomationCondition => {
    const at = `conditions[${i}]`;
    if (!isObject(c)) {
      errors.add(at, "must be an object", "invalid");
      return c as AutomationCondition;
    }
    for (const p of checkCondition(c, event)) errors.add(`${at}.${p.field}`, p.message, p.code);
    const q = c.query_operator;
    if (q === undefined || q === null || q === "") {
      if (i < last) errors.add(`${at}.query_operator`, "is required between conditions (and, or)", "required");
      return (q === "" ? { ...c, query_operator: null } : c) as unknown as AutomationCondition;
    }
    const lower = typeof q === "string" ? q.toLowerCase() : null;
    if (lower !== "and" && lower !== "or") {
      errors.add(`${at}.query_operator`, "must be and or or", "invalid");
      return c as unknown as AutomationCondition;
    }
    return { ...c, query_operator: i === last ? null : lower } as unknown as AutomationCondition;
  });
  return errors.items.length === before ? conditions : null;
}

/** Actions checked against the catalogue, each problem named `actions[i].…`; null when any is wrong (macros share it). */
export function normaliseActions(raw: unknown, errors: FieldErrors): AutomationAction[] | null {
  if (!Array.isArray(raw) || raw.length === 0) {
    errors.add("actions", "must be an array with at least one action", raw == null ? "required" : "invalid");
    return null;
  }
  const before = errors.items.length;
  const actions = raw.map((a: unknown, i): AutomationAction => {
    if (!isObject(a)) {
      errors.add(`actions[${i}]`, "must be an object", "invalid");
      return a as AutomationAction;
    }
    for (const p of checkAction(a)) errors.add(`actions[${i}].${p.field}`, p.message, p.code);
    return { ...a, action_params: a.action_params ?? [] } as unknown as AutomationAction;
  });
  return errors.items.length === before ? actions : null;
}

/** A conversation_idle rule needs exactly one idle_minutes condition (it is what the scheduler reads). */
function checkIdleRule(conditions: readonly AutomationCondition[], errors: FieldErrors, field: string): void {
  const idle = conditions.flatMap((c, i) => (c.attribute_key === "idle_minutes" ? [i] : []));
  if (idle.length === 0) {
    errors.add(
      field,
      "a conversation_idle rule needs an idle_minutes condition with is_greater_than [minutes]",
      "required",
    );
  }
  for (const i of idle.slice(1)) {
    errors.add(`conditions[${i}].attribute_key`, "idle_minutes may appear only once", "invalid");
  }
}

function checkKeptConditions(event: AutomationEvent, stored: unknown, errors: FieldErrors): void {
  if (!Array.isArray(stored)) return;
  const problems = stored.flatMap((c: unknown, i) =>
    isObject(c) ? checkCondition(c, event).map((p) => `conditions[${i}].${p.field} ${p.message}`) : [],
  );
  if (problems.length > 0) {
    errors.add("event_name", `does not fit the rule's conditions: ${problems.join("; ")}`, "not_allowed");
  } else if (event === "conversation_idle") {
    checkIdleRule(stored as AutomationCondition[], errors, "event_name");
  }
}

/**
 * The N of a conversation_idle rule's idle_minutes condition, for the scheduler: conversations idle for
 * more than N minutes are the candidates. Null when the rule has no usable idle_minutes condition.
 */
export function idleMinutesOf(conditions: unknown): number | null {
  if (!Array.isArray(conditions)) return null;
  for (const c of conditions) {
    if (isObject(c) && c.attribute_key === "idle_minutes" && c.filter_operator === "is_greater_than") {
      const n = Array.isArray(c.values) ? toInteger(c.values[0]) : null;
      return n !== null && n > 0 ? n : null;
    }
  }
  return null;
}

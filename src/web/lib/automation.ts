// The automation form's rows and how they become a rule for POST /automation_rules. The choices come
// from the engine's own catalogue (src/shared/automation-*.ts), so the form offers exactly what the
// server accepts. Pure (test/web/automation.test.ts).
import type { AutomationActionName } from "../../shared/automation-actions.ts";
import {
  BUILT_IN_ATTRIBUTES,
  CONVERSATION_PRIORITIES,
  CONVERSATION_STATUSES,
  type AttributeSpec,
  type FilterOperator,
} from "../../shared/automation-conditions.ts";
import { AUTOMATION_EVENTS } from "../../shared/automation-events.ts";
import { hasKey, t } from "./i18n.ts";

export { AUTOMATION_EVENTS, CONVERSATION_PRIORITIES, CONVERSATION_STATUSES };

export interface ConditionRow {
  attribute_key: string;
  filter_operator: FilterOperator;
  /** As typed or chosen: one value, or several separated by commas for labels. */
  value: string;
  query_operator: "and" | "or";
}

export interface ActionRow {
  action_name: AutomationActionName;
  value: string;
  /** send_email_to_team's message (its team is `value`). */
  message: string;
}

/** What each action needs from the form. Attachments need an upload and are left to the API. */
export const ACTION_INPUTS: Record<
  Exclude<AutomationActionName, "send_attachment">,
  "text" | "labels" | "agent" | "team" | "status" | "priority" | "url" | "emails" | "team-email" | "none"
> = {
  send_message: "text",
  add_private_note: "text",
  add_label: "labels",
  remove_label: "labels",
  assign_agent: "agent",
  assign_team: "team",
  change_status: "status",
  change_priority: "priority",
  resolve_conversation: "none",
  open_conversation: "none",
  snooze_conversation: "none",
  mute_conversation: "none",
  send_webhook_event: "url",
  send_email_transcript: "emails",
  send_email_to_team: "team-email",
};

export const FORM_ACTIONS = Object.keys(ACTION_INPUTS) as (keyof typeof ACTION_INPUTS)[];

/** The attribute keys a rule for this event may test (idle_minutes only for conversation_idle). */
export function attributesFor(event: string): AttributeSpec[] {
  return [...BUILT_IN_ATTRIBUTES.values()].filter((a) => !a.events || a.events.includes(event));
}

/**
 * The operators the form offers for a key: attribute_changed is left out (its {from, to} values are
 * for API clients).
 */
export function operatorsFor(key: string): FilterOperator[] {
  return (BUILT_IN_ATTRIBUTES.get(key)?.operators ?? []).filter((op) => op !== "attribute_changed");
}

export const takesNoValue = (op: FilterOperator) => op === "is_present" || op === "is_not_present";

export function newCondition(event: string): ConditionRow {
  const key = event === "conversation_idle" ? "idle_minutes" : "status";
  return { attribute_key: key, filter_operator: operatorsFor(key)[0]!, value: "", query_operator: "and" };
}

export function newAction(): ActionRow {
  return { action_name: "add_label", value: "", message: "" };
}

const list = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

function conditionValues(row: ConditionRow): unknown[] | undefined {
  if (takesNoValue(row.filter_operator)) return undefined;
  const spec = BUILT_IN_ATTRIBUTES.get(row.attribute_key);
  if (spec?.type === "labels") return list(row.value);
  if (spec?.type === "integer") return row.value.trim() === "" ? [] : [Number(row.value)];
  return [row.value.trim()];
}

function actionParams(row: ActionRow): unknown[] {
  const input = ACTION_INPUTS[row.action_name as keyof typeof ACTION_INPUTS] ?? "text";
  switch (input) {
    case "none":
      return [];
    case "labels":
      return list(row.value);
    case "agent":
    case "team":
      return row.value === "" ? ["nil"] : [Number(row.value)];
    case "priority":
      return [row.value === "" ? "nil" : row.value];
    case "team-email":
      return [{ team_ids: row.value === "" ? [] : [Number(row.value)], message: row.message }];
    case "emails":
      return [list(row.value).join(",")];
    default:
      return [row.value.trim()];
  }
}

/** The rule as the API takes it; the server checks it and names each problem. */
export function ruleBody(
  name: string,
  description: string,
  event: string,
  conditions: ConditionRow[],
  actions: ActionRow[],
  active = true,
) {
  return {
    name: name.trim(),
    description: description.trim() || null,
    event_name: event,
    active,
    conditions: conditions.map((c, i) => ({
      attribute_key: c.attribute_key,
      filter_operator: c.filter_operator,
      ...(conditionValues(c) === undefined ? {} : { values: conditionValues(c) }),
      query_operator: i < conditions.length - 1 ? c.query_operator : null,
    })),
    actions: actionsBody(actions),
  };
}

/** The action rows as the API takes them (automation rules and macros alike). */
export function actionsBody(actions: ActionRow[]): { action_name: string; action_params: unknown[] }[] {
  return actions.map((a) => ({ action_name: a.action_name, action_params: actionParams(a) }));
}

/** A rule as the API answers it. */
export interface AutomationRule {
  id: number;
  name: string;
  description: string | null;
  event_name: string;
  active: boolean;
  disabled_reason?: string | null;
  conditions: { attribute_key: string; filter_operator: string; values?: unknown[]; query_operator: string | null }[];
  actions: { action_name: string; action_params?: unknown[] }[];
}

const text = (v: unknown) => (v === undefined || v === null || v === "nil" ? "" : String(v));

/** A saved rule as the form's rows (the inverse of ruleBody), for editing it. */
export function rowsOf(rule: AutomationRule): { conditions: ConditionRow[]; actions: ActionRow[] } {
  const conditions = rule.conditions.map((c): ConditionRow => {
    const values = c.values ?? [];
    const labels = BUILT_IN_ATTRIBUTES.get(c.attribute_key)?.type === "labels";
    return {
      attribute_key: c.attribute_key,
      filter_operator: c.filter_operator as FilterOperator,
      value: labels ? values.map(text).join(", ") : text(values[0]),
      query_operator: c.query_operator === "or" ? "or" : "and",
    };
  });
  return { conditions, actions: actionRowsOf(rule.actions) };
}

/** Saved actions as the form's rows (the inverse of actionsBody), for editing a rule or a macro. */
export function actionRowsOf(saved: AutomationRule["actions"]): ActionRow[] {
  return saved.map((a): ActionRow => {
    const params = a.action_params ?? [];
    const row = { action_name: a.action_name as AutomationActionName, value: text(params[0]), message: "" };
    const input = ACTION_INPUTS[a.action_name as keyof typeof ACTION_INPUTS];
    if (input === "labels") return { ...row, value: params.map(text).join(", ") };
    if (input === "none") return { ...row, value: "" };
    if (input === "team-email") {
      const p = (params[0] ?? {}) as { team_ids?: unknown[]; message?: unknown };
      return { ...row, value: text(p.team_ids?.[0]), message: text(p.message) };
    }
    return row;
  });
}

/** The words for one of the catalogue's identifiers in the current language, else the identifier humanized. */
export function term(kind: "event" | "op" | "attr" | "action", id: string): string {
  const key = `auto.${kind}.${id}`;
  return hasKey(key) ? t(key) : humanize(id);
}

/** Words for keys and names: "assignee_id" → "Assignee id". */
export function humanize(key: string): string {
  const s = key.replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

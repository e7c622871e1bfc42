// What an automation rule may do: the action catalogue and a parameter check per action.
// Shapes follow what Chatwoot's dashboard sends (chatwoot-behaviour.md §9.4): parameters are always an
// array, ids may be JSON numbers or digit strings (form bodies), "nil" means "none".
// Checking here only covers the shape; whether a user, team or attachment exists in the account is
// for the service that saves the rule (it has the repositories) or for the action at run time.

import { CONVERSATION_PRIORITIES, CONVERSATION_STATUSES, toInteger } from "./automation-conditions.ts";

export const AUTOMATION_ACTIONS = [
  "send_message",
  "add_private_note",
  "add_label",
  "remove_label",
  "assign_agent",
  "assign_team",
  "change_status",
  "resolve_conversation",
  "open_conversation",
  "snooze_conversation",
  "mute_conversation",
  "change_priority",
  "send_webhook_event",
  "send_email_to_team",
  "send_email_transcript",
  "send_attachment",
] as const;
export type AutomationActionName = (typeof AUTOMATION_ACTIONS)[number];

/** Chatwoot's limit on a message's content; a longer text could never be sent by the action. */
export const MESSAGE_TEXT_MAX = 150_000;

/** Why the parameters do not fit, or null. Receives an array (missing/null params arrive as []). */
type ParamCheck = (params: readonly unknown[]) => string | null;

const isBlank = (v: unknown): boolean => typeof v !== "string" || v.trim() === "";
const positiveId = (v: unknown): boolean => {
  const n = toInteger(v);
  return n !== null && n > 0;
};

const text: ParamCheck = (p) => {
  if (p.length !== 1 || isBlank(p[0])) return "must be [text] with a non-blank text";
  return (p[0] as string).length > MESSAGE_TEXT_MAX ? `text must be at most ${MESSAGE_TEXT_MAX} characters` : null;
};

const labelTitles: ParamCheck = (p) =>
  p.length > 0 && p.every((v) => !isBlank(v)) ? null : "must be a non-empty array of label titles";

// Status and snooze actions need nothing; the dashboard sends [] for them.
const none: ParamCheck = (p) => (p.length === 0 ? null : "must be empty");

const oneOf =
  (allowed: readonly unknown[], shape: string): ParamCheck =>
  (p) =>
    p.length === 1 && allowed.includes(p[0]) ? null : `must be ${shape}`;

function isHttpUrl(v: unknown): boolean {
  if (typeof v !== "string") return false;
  try {
    const url = new URL(v);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;
/** An address, or a Liquid variable such as {{contact.email}} that Chatwoot expands when sending. */
const isAddress = (s: string): boolean => EMAIL.test(s) || /^\{\{\s*[\w.]+\s*\}\}$/.test(s);

const ACTION_PARAMS: Record<AutomationActionName, ParamCheck> = {
  send_message: text,
  add_private_note: text,
  add_label: labelTitles,
  remove_label: labelTitles,
  // Chatwoot also unassigns with "nil"; a user id may be a number or digits.
  assign_agent: (p) => (p.length === 1 && (p[0] === "nil" || positiveId(p[0])) ? null : 'must be [user_id] or ["nil"]'),
  // "nil", 0 or an empty list all unassign the team in Chatwoot.
  assign_team: (p) =>
    p.length === 0 || (p.length === 1 && (p[0] === "nil" || toInteger(p[0]) === 0 || positiveId(p[0])))
      ? null
      : 'must be [team_id], ["nil"], [0] or []',
  change_status: oneOf(CONVERSATION_STATUSES, `[status], one of: ${CONVERSATION_STATUSES.join(", ")}`),
  resolve_conversation: none,
  open_conversation: none,
  // Chatwoot snoozes without an end (until the next reply); we also accept a fixed end in unix seconds.
  snooze_conversation: (p) =>
    p.length === 0 || (p.length === 1 && positiveId(p[0])) ? null : "must be [] or [snooze until, unix seconds]",
  mute_conversation: none,
  change_priority: oneOf(
    [...CONVERSATION_PRIORITIES, "nil", null],
    `[priority], one of: ${CONVERSATION_PRIORITIES.join(", ")}, nil`,
  ),
  send_webhook_event: (p) => (p.length === 1 && isHttpUrl(p[0]) ? null : "must be [url] with an http(s) URL"),
  send_email_to_team: (p) => {
    const shape = "must be [{team_ids: [team ids], message: text}]";
    if (p.length !== 1 || typeof p[0] !== "object" || p[0] === null || Array.isArray(p[0])) return shape;
    const { team_ids: teamIds, message } = p[0] as Record<string, unknown>;
    if (!Array.isArray(teamIds) || teamIds.length === 0 || !teamIds.every(positiveId)) return shape;
    return isBlank(message) ? shape : null;
  },
  // Chatwoot's dashboard sends one string of comma-separated addresses; several strings are fine too.
  send_email_transcript: (p) => {
    const parts = p.flatMap((v) => (typeof v === "string" ? v.split(",").map((s) => s.trim()) : [null]));
    return parts.length > 0 && parts.every((s) => s !== null && isAddress(s))
      ? null
      : "must be [email addresses], comma-separated";
  },
  // An attachment id, or (as Chatwoot's dashboard sends) an upload's signed blob id.
  send_attachment: (p) =>
    p.length === 1 && (positiveId(p[0]) || (typeof p[0] === "string" && !isBlank(p[0])))
      ? null
      : "must be [attachment id]",
};

export function isAutomationAction(name: unknown): name is AutomationActionName {
  return typeof name === "string" && (AUTOMATION_ACTIONS as readonly string[]).includes(name);
}

export interface ActionProblem {
  field: "action_name" | "action_params";
  message: string;
  code: "required" | "invalid" | "unsupported";
}

/** Problems with one action: an unknown name, or parameters that do not fit it. */
export function checkAction(action: Record<string, unknown>): ActionProblem[] {
  const name = action.action_name;
  if (typeof name !== "string" || name.trim() === "") {
    return [{ field: "action_name", message: "can't be blank", code: "required" }];
  }
  if (!isAutomationAction(name)) {
    return [{ field: "action_name", message: `Automation action ${name} is not supported`, code: "unsupported" }];
  }
  const raw = action.action_params;
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) {
    return [{ field: "action_params", message: "must be an array", code: "invalid" }];
  }
  const problem = ACTION_PARAMS[name](raw ?? []);
  return problem ? [{ field: "action_params", message: problem, code: "invalid" }] : [];
}

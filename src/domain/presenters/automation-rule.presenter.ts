// Wire shape of an automation rule: the automation rule record (Chatwoot's partial, with
// created_on in Unix seconds), plus what the engine records about the rule's health. Chatwoot's
// `files` appear only with attachments, which Parley does not have.
import type { RuleRow } from "../../db/automation-rules.repo.ts";

export function ruleOf(r: RuleRow) {
  return {
    id: r.id,
    account_id: r.account_id,
    name: r.name,
    description: r.description,
    event_name: r.event_name,
    conditions: JSON.parse(r.conditions) as Record<string, unknown>[],
    actions: JSON.parse(r.actions) as Record<string, unknown>[],
    created_on: r.created_at,
    active: r.active === 1,
    // Ours: consecutive failing runs, the latest failure, and why the engine switched the rule off.
    failure_count: r.failure_count,
    last_error: r.last_error,
    disabled_reason: r.disabled_reason,
  };
}

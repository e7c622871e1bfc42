// The events an automation rule can run on: Chatwoot's five, plus `conversation_idle` (ours), fired
// by the scheduler for an open conversation that has had no activity for N minutes. Such a rule must
// carry exactly one condition `{attribute_key: "idle_minutes", filter_operator: "is_greater_than",
// values: [N]}`; the scheduler reads N with idleMinutesOf() (src/domain/automation-catalogue.ts).
export const AUTOMATION_EVENTS = [
  "conversation_created",
  "conversation_updated",
  "conversation_opened",
  "conversation_resolved",
  "message_created",
  "conversation_idle",
] as const;
export type AutomationEvent = (typeof AUTOMATION_EVENTS)[number];

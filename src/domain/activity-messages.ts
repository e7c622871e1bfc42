// The text of activity messages, worded as Chatwoot words them (its en locale), because
// transcripts, automation and agents' habits read them.
import type { ConversationStatus, Priority } from "../db/conversations.repo.ts";
import type { Acting } from "./acting.ts";

/** A status change; null when Chatwoot writes none (e.g. the system reopening a snoozed conversation). */
export function statusActivity(a: Acting, status: ConversationStatus): string | null {
  if (a.actor.type === "contact")
    return status === "resolved" ? `Conversation was resolved by ${capitalize(a.name ?? "")}` : null;
  if (!a.name) return null;
  switch (status) {
    case "resolved":
      return `Conversation was marked resolved by ${a.name}`;
    case "open":
      return `Conversation was reopened by ${a.name}`;
    case "pending":
      return `Conversation was marked as pending by ${a.name}`;
    case "snoozed":
      return `Conversation was snoozed by ${a.name}`;
  }
}

export const SYSTEM_REOPENED = "System reopened the conversation due to a new incoming message.";

export function assigneeActivity(a: Acting, assignee: { id: number; name: string } | null): string | null {
  if (!a.name) return null;
  if (!assignee) return `Conversation unassigned by ${a.name}`;
  if (a.actor.type === "user" && a.actor.id === assignee.id) return `${a.name} self-assigned this conversation`;
  return `Assigned to ${assignee.name} by ${a.name}`;
}

/** A team change; `assignee` is set when the assignee changed in the same step. `team` is the new team, `previousTeam` the old. */
export function teamActivity(
  a: Acting,
  team: string | null,
  previousTeam: string | null,
  assignee: string | null,
): string | null {
  if (!a.name) return null;
  if (team === null) return `Unassigned from ${previousTeam ?? ""} by ${a.name}`;
  if (assignee) return `Assigned to ${assignee} via ${team} by ${a.name}`;
  return `Assigned to ${team} by ${a.name}`;
}

export function labelActivity(a: Acting, change: "added" | "removed", labels: readonly string[]): string | null {
  if (!a.name || labels.length === 0) return null;
  return `${a.name} ${change} ${labels.join(", ")}`;
}

export function priorityActivity(a: Acting, before: Priority | null, after: Priority | null): string | null {
  if (!a.name || before === after) return null;
  if (before && after) return `${a.name} changed the priority from ${before} to ${after}`;
  if (after) return `${a.name} set the priority to ${after}`;
  return `${a.name} removed the priority`;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
}

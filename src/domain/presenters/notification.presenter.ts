// A notification as Chatwoot's API and realtime stream show it (its push_event_data): the primary
// actor is the conversation (its id and, in `primary_actor`, its display id, meta and inbox), the
// secondary actor the message that caused it, if any.
import type { NotificationRow } from "../../db/notifications.repo.ts";

export interface NotificationData {
  push_message_title: string;
  primary_actor: { id: unknown; meta: unknown; inbox_id: unknown };
  secondary_actor: Record<string, unknown> | null;
}

export function notificationOf(row: NotificationRow, user: Record<string, unknown>) {
  const data = JSON.parse(row.data) as NotificationData;
  return {
    id: row.id,
    notification_type: row.notification_type,
    push_message_title: data.push_message_title,
    primary_actor_type: "Conversation" as const,
    primary_actor_id: row.conversation_id,
    primary_actor: data.primary_actor,
    read_at: row.read_at,
    secondary_actor: data.secondary_actor,
    user,
    created_at: row.created_at,
    last_activity_at: row.last_activity_at,
    snoozed_until: null,
    account_id: row.account_id,
  };
}

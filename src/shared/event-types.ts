// Every event kind Parley records, in one place. Services write them to the outbox (events table)
// in the same transaction as the change; webhooks, automation and realtime read them from there.

/** The spec's eight webhook event kinds: a webhook created without `subscriptions` gets these. */
export const SPEC_WEBHOOK_KINDS = [
  "conversation_created",
  "conversation_status_changed",
  "conversation_updated",
  "message_created",
  "message_updated",
  "contact_created",
  "contact_updated",
  "webwidget_triggered",
] as const;

/** Chatwoot's further subscribable kinds (docs/compatibility.md #9). */
export const EXTRA_WEBHOOK_KINDS = [
  "inbox_created",
  "inbox_updated",
  "conversation_typing_on",
  "conversation_typing_off",
] as const;

/** Kinds a webhook may subscribe to. */
export const WEBHOOK_KINDS = [...SPEC_WEBHOOK_KINDS, ...EXTRA_WEBHOOK_KINDS] as const;

/** Internal kinds: recorded for automation, reports and realtime, never sent to webhooks. */
export const INTERNAL_KINDS = [
  "conversation_opened",
  "conversation_resolved",
  "assignee_changed",
  "team_changed",
  "conversation_deleted",
  "contact_deleted",
  "message_deleted",
  "inbox_deleted",
  "presence_changed",
  "contact_merged",
] as const;

export type WebhookKind = (typeof WEBHOOK_KINDS)[number];
export type EventKind = WebhookKind | (typeof INTERNAL_KINDS)[number];

export const EVENT_KINDS: readonly EventKind[] = [...WEBHOOK_KINDS, ...INTERNAL_KINDS];

export function isWebhookKind(kind: string): kind is WebhookKind {
  return (WEBHOOK_KINDS as readonly string[]).includes(kind);
}

/** Who caused an event. Events caused by `automation` never trigger automation again. */
export type ActorType = "user" | "contact" | "automation" | "system" | "platform_app" | "agent_bot";
export interface Actor {
  type: ActorType;
  id: number | null;
}
export const SYSTEM_ACTOR: Actor = { type: "system", id: null };

export interface NewEvent {
  kind: EventKind;
  accountId: number;
  actor: Actor;
  inboxId?: number | null;
  /** Internal conversation id (not the display id). */
  conversationId?: number | null;
  contactId?: number | null;
  /** True for private notes: contacts' realtime streams must never see them. */
  private?: boolean;
  /** The webhook-shaped payload at the moment of the change (without the `event` key). */
  payload: Record<string, unknown>;
}

export interface StoredEvent {
  id: number;
  kind: EventKind;
  accountId: number;
  actor: Actor;
  inboxId: number | null;
  conversationId: number | null;
  contactId: number | null;
  private: boolean;
  payload: Record<string, unknown>;
  createdAtMs: number;
}

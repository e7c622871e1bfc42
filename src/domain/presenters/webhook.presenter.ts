// Wire shapes of webhooks (Chatwoot's webhook JSON: id, name, url, account_id, subscriptions, inbox) and
// of their delivery log.
import type { AttemptRow, DeliveryRow } from "../../db/webhook-deliveries.repo.ts";
import type { WebhookWithInbox } from "../../db/webhooks.repo.ts";

export function webhookOf(w: WebhookWithInbox) {
  return {
    id: w.id,
    account_id: w.account_id,
    name: w.name,
    url: w.url,
    subscriptions: JSON.parse(w.subscriptions) as string[],
    inbox_id: w.inbox_id,
    ...(w.inbox_id !== null && w.inbox_name !== null ? { inbox: { id: w.inbox_id, name: w.inbox_name } } : {}),
    // Our addition: why nothing is being sent (the receiver answered 410 Gone); null while enabled.
    disabled_reason: w.disabled_reason,
  };
}

/** At creation and rotation only: the signing secret is not part of the listed record. */
export function webhookWithSecret(w: WebhookWithInbox) {
  return { ...webhookOf(w), secret: w.secret };
}

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

export function deliveryOf(d: DeliveryRow) {
  return {
    id: d.delivery_id,
    event: d.event_kind,
    event_id: d.event_id,
    status: d.status,
    attempts: d.attempts,
    max_attempts: d.max_attempts,
    last_status_code: d.last_status_code,
    last_latency_ms: d.last_latency_ms,
    last_error: d.last_error,
    next_attempt_at: seconds(d.next_attempt_at_ms),
    created_at: seconds(d.created_at_ms)!,
    updated_at: seconds(d.updated_at_ms)!,
  };
}

export function attemptOf(a: AttemptRow) {
  return {
    attempt: a.attempt,
    started_at: seconds(a.started_at_ms)!,
    status_code: a.status_code,
    latency_ms: a.latency_ms,
    error: a.error,
    response_excerpt: a.response_excerpt,
  };
}

/** One delivery with its body and its most recent attempts. */
export function deliveryDetailOf(d: DeliveryRow, attempts: AttemptRow[]) {
  return {
    ...deliveryOf(d),
    target_url: d.target_url,
    payload: JSON.parse(d.payload) as Record<string, unknown>,
    attempts_log: attempts.map(attemptOf),
  };
}

// Webhook fan-out: runs inside the transaction that records an event (outbox.onRecord) and writes one
// delivery row per receiver, so a committed event always has its deliveries and a rolled-back one never
// does. Receivers (Chatwoot's webhook_listener.rb):
//   - every enabled webhook of the account subscribed to the kind;
//   - for conversation, message, typing and widget kinds, the event's API inbox's webhook_url (the
//     "API inbox callback"), whatever the subscriptions say.
import type { WebhookDeliveriesRepo } from "../../db/webhook-deliveries.repo.ts";
import type { WebhooksRepo } from "../../db/webhooks.repo.ts";
import { MAX_ATTEMPTS } from "../../domain/delivery-policy.ts";
import type { Clock } from "../../lib/clock.ts";
import { generateSecret } from "../../lib/webhook-signature.ts";
import type { Reads } from "../../db/reads.ts";
import type { InTransactionHook } from "../outbox.ts";
import { isWebhookKind, type StoredEvent, type WebhookKind } from "../../shared/event-types.ts";

/** Kinds an API inbox's webhook_url receives (contact and inbox kinds go to account webhooks only). */
export const CALLBACK_KINDS: ReadonlySet<WebhookKind> = new Set<WebhookKind>([
  "conversation_created",
  "conversation_status_changed",
  "conversation_updated",
  "message_created",
  "message_updated",
  "conversation_typing_on",
  "conversation_typing_off",
  "webwidget_triggered",
]);

export interface FanOutDeps {
  webhooks: WebhooksRepo;
  deliveries: WebhookDeliveriesRepo;
  clock: Clock;
  /**
   * Called when rows were written. The deliverer wakes in a setImmediate, which runs after the
   * transaction's commit: with group commit too, since the group queued its commit (also a
   * setImmediate) when it began, and immediates run in order.
   */
  wake: () => void;
}

/**
 * Deliveries to one receiver about one conversation (else contact, else inbox) go out one at a time in
 * event order; other events (none today) are unordered.
 */
export function orderKeyOf(e: Pick<StoredEvent, "conversationId" | "contactId" | "inboxId">): string | null {
  if (e.conversationId !== null) return `conversation:${e.conversationId}`;
  if (e.contactId !== null) return `contact:${e.contactId}`;
  if (e.inboxId !== null) return `inbox:${e.inboxId}`;
  return null;
}

/** The JSON body: the event's webhook data with `event` merged in at the top. */
export function webhookBody(e: Pick<StoredEvent, "kind" | "payload">): string {
  const { event: _ignored, ...data } = e.payload;
  return JSON.stringify({ event: e.kind, ...data });
}

interface Receiver {
  webhook_id: number | null;
  inbox_id: number | null;
  target_url: string;
  target_key: string;
}

function* readReceivers(d: FanOutDeps, e: StoredEvent & { kind: WebhookKind }): Reads<Receiver[]> {
  const out: Receiver[] = [];
  for (const w of yield* d.webhooks.readActive(e.accountId)) {
    if ((JSON.parse(w.subscriptions) as string[]).includes(e.kind)) {
      out.push({ webhook_id: w.id, inbox_id: null, target_url: w.url, target_key: `webhook:${w.id}` });
    }
  }
  if (e.inboxId !== null && CALLBACK_KINDS.has(e.kind)) {
    const inbox = yield* d.webhooks.readApiInboxCallback(e.accountId, e.inboxId);
    if (inbox?.webhook_url) {
      if (inbox.webhook_secret === null) yield* d.webhooks.setInboxSecretSteps(inbox.id, generateSecret());
      out.push({
        webhook_id: null,
        inbox_id: inbox.id,
        target_url: inbox.webhook_url,
        target_key: `inbox:${inbox.id}`,
      });
    }
  }
  return out;
}

/**
 * Activity messages ("Conversation was marked resolved by …") are recorded as message events for
 * realtime, but Chatwoot never sends them to webhooks (message webhooks carry incoming, outgoing and
 * template messages only).
 */
export function isActivityMessageEvent(e: Pick<StoredEvent, "kind" | "payload">): boolean {
  return (e.kind === "message_created" || e.kind === "message_updated") && e.payload.message_type === "activity";
}

export function webhookFanOut(d: FanOutDeps): InTransactionHook {
  return (event) => {
    if (!isWebhookKind(event.kind)) return null; // internal kinds never leave the server
    if (isActivityMessageEvent(event)) return null;
    return deliverySteps(d, event as StoredEvent & { kind: WebhookKind });
  };
}

function* deliverySteps(d: FanOutDeps, event: StoredEvent & { kind: WebhookKind }): Reads<void> {
  const receivers = yield* readReceivers(d, event);
  if (receivers.length === 0) return;
  const payload = webhookBody(event);
  const order_key = orderKeyOf(event);
  for (const r of receivers) {
    yield* d.deliveries.insertSteps({
      ...r,
      delivery_id: crypto.randomUUID(),
      account_id: event.accountId,
      order_key,
      event_id: event.id,
      event_kind: event.kind,
      conversation_id: event.conversationId,
      payload,
      max_attempts: MAX_ATTEMPTS,
      now_ms: d.clock.nowMs(),
    });
  }
  d.wake();
}

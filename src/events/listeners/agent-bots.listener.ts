// Agent bot fan-out: inside the transaction that records an event (outbox.onRecord), one delivery
// row to the outgoing_url of the bot that answers the event's inbox — the same durable, signed,
// retried delivery table as webhooks (src/jobs/deliver-webhooks.job.ts), so a bot never misses an
// event after a crash and never gets one twice. What a bot receives (Chatwoot's AgentBotListener,
// plus conversation_created and conversation_status_changed): public messages created or updated
// (no private notes, no activity lines), new conversations, status changes, widget triggers.
import type { AgentBotsRepo } from "../../db/agent-bots.repo.ts";
import type { WebhookDeliveriesRepo } from "../../db/webhook-deliveries.repo.ts";
import { MAX_ATTEMPTS } from "../../domain/delivery-policy.ts";
import type { Clock } from "../../lib/clock.ts";
import { nested, type Reads } from "../../db/reads.ts";
import type { StoredEvent } from "../../shared/event-types.ts";
import type { InTransactionHook } from "../outbox.ts";
import { isActivityMessageEvent, orderKeyOf, webhookBody } from "./webhooks.listener.ts";

export const AGENT_BOT_TARGET_PREFIX = "agent_bot:";

const BOT_KINDS = new Set([
  "message_created",
  "message_updated",
  "conversation_created",
  "conversation_status_changed",
  "webwidget_triggered",
]);

export interface AgentBotFanOutDeps {
  agentBots: AgentBotsRepo;
  deliveries: WebhookDeliveriesRepo;
  clock: Clock;
  wake: () => void;
}

export function agentBotFanOut(d: AgentBotFanOutDeps): InTransactionHook {
  return (event) => {
    if (!BOT_KINDS.has(event.kind) || event.inboxId === null) return null;
    if (isActivityMessageEvent(event) || event.payload.private === true) return null;
    return botDeliverySteps(d, event, event.inboxId);
  };
}

function* botDeliverySteps(d: AgentBotFanOutDeps, event: StoredEvent, inboxId: number): Reads<void> {
  const bot = yield* nested(d.agentBots.readOfInbox(inboxId));
  if (!bot?.outgoing_url) return;
  yield* d.deliveries.insertSteps({
    webhook_id: null,
    inbox_id: inboxId,
    target_url: bot.outgoing_url,
    target_key: `${AGENT_BOT_TARGET_PREFIX}${bot.id}`,
    delivery_id: crypto.randomUUID(),
    account_id: event.accountId,
    order_key: orderKeyOf(event),
    event_id: event.id,
    event_kind: event.kind,
    conversation_id: event.conversationId,
    payload: webhookBody(event),
    max_attempts: MAX_ATTEMPTS,
    now_ms: d.clock.nowMs(),
  });
  d.wake();
}

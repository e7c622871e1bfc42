// Email replies: inside the transaction that records a message_created event, a reply an agent (or
// a bot, or automation) writes in an email conversation is queued for SMTP with the Message-ID it
// will carry, and that Message-ID is remembered for the conversation, so the customer's answer
// finds its thread. Private notes, activity lines and the customer's own mail never leave.
import type { EmailChannelsRepo } from "../../db/email-channels.repo.ts";
import type { EmailOutboxRepo } from "../../db/email-outbox.repo.ts";
import type { InboxesRepo } from "../../db/inboxes.repo.ts";
import type { Clock } from "../../lib/clock.ts";
import { channelTypeName } from "../../domain/channels.ts";
import { channelAttributes } from "../../domain/presenters/inbox.presenter.ts";
import type { Reads } from "../../db/reads.ts";
import type { StoredEvent } from "../../shared/event-types.ts";
import type { InTransactionHook } from "../outbox.ts";

export interface EmailOutboxDeps {
  inboxes: InboxesRepo;
  emailChannels: EmailChannelsRepo;
  emailOutbox: EmailOutboxRepo;
  clock: Clock;
  wake: () => void;
}

/** The Message-ID of a reply: unique, and on the inbox's own domain so receivers thread it. */
export function replyMessageId(inboxEmail: string | null): string {
  const domain = inboxEmail?.split("@")[1] ?? "parley.invalid";
  return `<parley-${crypto.randomUUID()}@${domain}>`;
}

export function emailOutboxFanOut(d: EmailOutboxDeps): InTransactionHook {
  return (event) => {
    if (event.kind !== "message_created" || event.inboxId === null || event.conversationId === null) return null;
    const p = event.payload;
    if (p.message_type !== "outgoing" || p.private === true || typeof p.id !== "number") return null;
    // The payload names the conversation's channel: other channels cost no inbox lookup on the write path.
    const channel = (p.conversation as { channel?: unknown } | undefined)?.channel;
    if (typeof channel === "string" && channel !== channelTypeName("email")) return null;
    return outboxSteps(d, event, { inboxId: event.inboxId, conversationId: event.conversationId, messageId: p.id });
  };
}

function* outboxSteps(
  d: EmailOutboxDeps,
  event: StoredEvent,
  ids: { inboxId: number; conversationId: number; messageId: number },
): Reads<void> {
  const inbox = yield* d.inboxes.readById(event.accountId, ids.inboxId);
  if (inbox?.channel_type !== "email") return;
  const email = channelAttributes(inbox).email ?? null;
  const headerId = replyMessageId(email);
  const now = Math.floor(d.clock.nowMs() / 1000);
  yield* d.emailOutbox.insertSteps(
    {
      message_id: ids.messageId,
      account_id: event.accountId,
      inbox_id: ids.inboxId,
      conversation_id: ids.conversationId,
      header_id: headerId,
    },
    now,
  );
  yield* d.emailChannels.recordMessageIdSteps(
    ids.inboxId,
    { header_id: headerId, conversation_id: ids.conversationId, message_id: ids.messageId, direction: "out" },
    now,
  );
  d.wake();
}

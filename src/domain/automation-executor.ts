// Runs one automation action on a conversation through the same services the API uses, as the
// automation actor, so every change records its usual events and activity messages (with actor
// `automation`, which the automation listener ignores: rules never trigger rules). Throws when the
// action fails; the engine counts that against the rule.
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import type { ConversationRow, ConversationsRepo } from "../db/conversations.repo.ts";
import type { LabelsRepo } from "../db/labels.repo.ts";
import { nested, type Reads } from "../db/reads.ts";
import type { WebhookDeliveriesRepo } from "../db/webhook-deliveries.repo.ts";
import type { Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import { toInteger, type AutomationAction } from "./automation-catalogue.ts";
import type { ContactsService } from "./contacts.service.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import type { ConversationStateService } from "./conversation-state.service.ts";
import type { ConversationsService } from "./conversations.service.ts";
import { MAX_ATTEMPTS } from "./delivery-policy.ts";
import type { MessageInput } from "./message-input.ts";
import type { MessagesService } from "./messages.service.ts";
import { conversationPushData } from "./presenters/conversation.presenter.ts";

export interface ExecutorDeps {
  conversations: ConversationsRepo;
  conversationRefs: ConversationRefsRepo;
  labels: LabelsRepo;
  webhookDeliveries: WebhookDeliveriesRepo;
  conversationsService: ConversationsService;
  conversationState: ConversationStateService;
  messagesService: MessagesService;
  contactsService: ContactsService;
  events: ConversationEvents;
  clock: Clock;
  wakeDeliveries: () => void;
}

export interface RunContext {
  /** The rule's event (send_webhook_event names it). */
  eventName: string;
  /** The triggering event's id (0 for the idle trigger, which has none). */
  eventId: number;
  ruleName: string;
}

/** Where automation webhooks are keyed in webhook_deliveries (no webhook record, no inbox). */
export const AUTOMATION_TARGET_PREFIX = "automation:";

const lower = (v: unknown): string => String(v).trim().toLowerCase();

export class AutomationExecutor {
  constructor(private readonly d: ExecutorDeps) {}

  /**
   * Runs one action inside the caller's body, as steps (src/db/reads.ts): the engine gives each action
   * an awaited body of its own, a macro's body holds all its actions, so a failing action leaves
   * nothing half done.
   */
  *runSteps(a: Acting, conversationId: number, action: AutomationAction, ctx: RunContext): Reads<void> {
    // Reloaded before each action: the previous one may have changed it (Chatwoot does the same).
    const row = yield* nested(this.d.conversations.readById(conversationId));
    if (!row) throw new Error("the conversation no longer exists");
    const p = action.action_params;
    const state = this.d.conversationState;
    switch (action.action_name) {
      case "add_label":
        // A title the conversation already carries in another case counts as there.
        return yield* this.setLabels(a, row, (current) => [
          ...current,
          ...p.map(lower).filter((t) => !current.some((c) => c.toLowerCase() === t)),
        ]);
      case "remove_label": {
        const drop = new Set(p.map(lower));
        return yield* this.setLabels(a, row, (current) => current.filter((t) => !drop.has(t.toLowerCase())));
      }
      case "assign_agent":
        return yield* this.assignAgent(a, row, p[0] === "nil" ? null : toInteger(p[0]));
      case "assign_team": {
        const id = p.length === 0 || p[0] === "nil" ? null : toInteger(p[0]);
        return void (yield* state.assignSteps(a, row, { team_id: id === 0 ? null : id }));
      }
      case "send_message":
        return yield* this.message(a, row, { content: p[0], message_type: "outgoing" });
      case "add_private_note":
        return yield* this.message(a, row, { content: p[0], message_type: "outgoing", private: true });
      case "change_status":
        return void (yield* state.setStatusSteps(a, row, p[0] as ConversationRow["status"], null));
      case "resolve_conversation":
        return void (yield* state.setStatusSteps(a, row, "resolved", null));
      case "open_conversation":
        return void (yield* state.setStatusSteps(a, row, "open", null));
      case "snooze_conversation":
        // Chatwoot snoozes until the next reply; a parameter gives a fixed end (Unix seconds).
        return void (yield* state.setStatusSteps(a, row, "snoozed", p.length ? toInteger(p[0]) : null));
      case "mute_conversation":
        // Chatwoot's mute, as the API's: the contact is blocked and the conversation resolved.
        return void (yield* state.muteSteps(a, row, true));
      case "change_priority":
        return void (yield* state.togglePrioritySteps(a, row, p[0] === "nil" ? null : p[0]));
      case "send_webhook_event":
        return yield* this.webhook(a, row, String(p[0]), ctx);
      case "send_email_to_team": {
        const { team_ids: ids, message } = p[0] as { team_ids: unknown[]; message: string };
        const names: string[] = [];
        for (const id of new Set(ids.map((v) => toInteger(v) ?? 0))) {
          const team = yield* nested(this.d.conversationRefs.readTeam(row.account_id, id));
          if (team) names.push(team.name);
        }
        return yield* this.unsentEmail(
          a,
          row,
          `Automation rule "${ctx.ruleName}" would have emailed team ${names.join(", ")} (not sent: Parley has no mailer): ${message}`,
        );
      }
      case "send_email_transcript":
        return yield* this.unsentEmail(
          a,
          row,
          `Automation rule "${ctx.ruleName}" would have emailed the transcript to ${p.join(", ")} (not sent: Parley has no mailer)`,
        );
      case "send_attachment":
        throw new Error("send_attachment is not supported: Parley stores no attachment files");
    }
  }

  private *setLabels(a: Acting, row: ConversationRow, next: (current: string[]) => string[]): Reads<void> {
    const current = yield* nested(this.d.labels.readTitles("conversation", row.id));
    yield* this.d.conversationsService.setLabelsSteps(a, row, next(current));
  }

  /**
   * Chatwoot assigns only an agent who may work the inbox (a member of it, or an administrator) and
   * otherwise does nothing: not a failure of the rule. An agent who left the account is one.
   */
  private *assignAgent(a: Acting, row: ConversationRow, userId: number | null): Reads<void> {
    const refs = this.d.conversationRefs;
    if (userId !== null) {
      const m = (yield* nested(refs.readMembers(row.account_id, [userId]))).get(userId);
      if (!m?.membership) throw new Error(`no agent ${userId} in this account`);
      if (m.membership.role !== "administrator" && !(yield* nested(refs.readIsInboxMember(row.inbox_id, userId))))
        return;
    }
    yield* this.d.conversationState.assignSteps(a, row, { assignee_id: userId });
  }

  /**
   * POSTs the conversation's push data with event "automation_event.<event>" to the URL, through the
   * durable delivery table (retries, SSRF checks, PARLEY_ALLOW_PRIVATE_WEBHOOKS). Unsigned, as in
   * Chatwoot: there is no webhook record and so no secret; X-Chatwoot-Delivery still identifies it.
   */
  private *webhook(a: Acting, row: ConversationRow, url: string, ctx: RunContext): Reads<void> {
    const event = `automation_event.${ctx.eventName}`;
    const view = yield* this.d.events.readView(a, row);
    const body = JSON.stringify({ event, ...conversationPushData(view) });
    yield* this.d.webhookDeliveries.insertSteps({
      delivery_id: crypto.randomUUID(),
      account_id: row.account_id,
      webhook_id: null,
      inbox_id: null,
      target_url: url,
      target_key: `${AUTOMATION_TARGET_PREFIX}${a.actor.id ?? 0}`,
      order_key: `conversation:${row.id}`,
      event_id: ctx.eventId,
      event_kind: event,
      conversation_id: row.id,
      payload: body,
      max_attempts: MAX_ATTEMPTS,
      now_ms: this.d.clock.nowMs(),
    });
    this.d.wakeDeliveries();
  }

  /** No mailer: the intent is kept as a private note on the conversation, for the agents to act on. */
  private *unsentEmail(a: Acting, row: ConversationRow, text: string): Reads<void> {
    yield* this.message(a, row, { content: text, message_type: "outgoing", private: true });
  }

  private *message(a: Acting, row: ConversationRow, input: MessageInput): Reads<void> {
    yield* this.d.messagesService.createInTxSteps(a, row, input, "chat", []);
  }
}

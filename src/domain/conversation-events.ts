// The events a conversation change records, in Chatwoot's order and payload shapes (§4, §8):
// status_changed (+ opened/resolved), conversation_updated with changed_attributes, assignee and
// team changes, and activity messages with their message_created. Runs inside the caller's writeTx.
import type { ConversationRow, ConversationsRepo } from "../db/conversations.repo.ts";
import { ACTIVITY, type MessageRow, type MessagesRepo } from "../db/messages.repo.ts";
import type { EventOutbox } from "../events/outbox.ts";
import { nested, type Reads, readNow } from "../db/reads.ts";
import type { EventKind } from "../shared/event-types.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import { NotFoundError } from "./errors.ts";
import type { ConversationView, ConversationViews, ViewOptions } from "./conversation-view.ts";
import type { ChangedAttribute } from "./presenters/contact.presenter.ts";
import { conversationChanges, conversationPushData, triggersUpdate } from "./presenters/conversation.presenter.ts";
import { messageWebhookData } from "./presenters/message.presenter.ts";
import type { ReportingRecorder } from "./reporting-recorder.ts";

export interface ConversationEventsDeps {
  views: ConversationViews;
  outbox: EventOutbox;
  messages: MessagesRepo;
  conversations: ConversationsRepo;
  clock: Clock;
  reporting: ReportingRecorder;
}

export class ConversationEvents {
  constructor(private readonly d: ConversationEventsDeps) {}

  /**
   * The row as of the caller's transaction: an awaited body may run after others' writes to the
   * conversation, and what it saves is derived from the row. A 404 once the conversation is deleted.
   */
  *readCurrent(loaded: ConversationRow): Reads<ConversationRow> {
    const row = yield* this.d.conversations.readById(loaded.id);
    if (row) return row;
    throw new NotFoundError("Conversation", "conversation_id", `no conversation ${loaded.display_id} in this account`);
  }

  *readView(a: Acting, row: ConversationRow, known?: ViewOptions["known"]): Reads<ConversationView> {
    return yield* nested(this.d.views.readOne(row, { account: a.account, viewerId: null, api: false, known }));
  }

  record(a: Acting, kind: EventKind, row: ConversationRow, payload: Record<string, unknown>, isPrivate = false): void {
    readNow(this.recordSteps(a, kind, row, payload, isPrivate));
  }

  *recordSteps(
    a: Acting,
    kind: EventKind,
    row: ConversationRow,
    payload: Record<string, unknown>,
    isPrivate = false,
  ): Reads<void> {
    yield* this.d.outbox.recordSteps({
      kind,
      accountId: a.account.id,
      actor: a.actor,
      inboxId: row.inbox_id,
      conversationId: row.id,
      contactId: row.contact_id,
      private: isPrivate,
      payload,
    });
  }

  *createdSteps(a: Acting, row: ConversationRow): Reads<void> {
    yield* this.recordSteps(a, "conversation_created", row, conversationPushData(yield* this.readView(a, row)));
  }

  /**
   * Records what changed between two saved states; returns the changes (empty: nothing recorded).
   * `view` is the event view of `after` when the caller already built it (batches of changes).
   */
  changed(
    a: Acting,
    before: ConversationRow,
    after: ConversationRow,
    labels?: { before: string[]; after: string[] },
    view?: ConversationView,
  ): ChangedAttribute[] {
    return readNow(this.changedSteps(a, before, after, labels, view));
  }

  *changedSteps(
    a: Acting,
    before: ConversationRow,
    after: ConversationRow,
    labels?: { before: string[]; after: string[] },
    view?: ConversationView,
  ): Reads<ChangedAttribute[]> {
    // Issue 8: every saved change passes here, so resolutions, openings and team moves write their
    // reporting events in the same transaction.
    yield* this.d.reporting.conversationChangedSteps(before, after);
    const changes = conversationChanges(before, after, labels);
    if (changes.length === 0) return changes;
    const push = conversationPushData(view ?? (yield* this.readView(a, after)));
    const record = (kind: EventKind, payload: Record<string, unknown>) => this.recordSteps(a, kind, after, payload);
    if (before.status !== after.status) {
      // Chatwoot reads the changes after they were cleared: status_changed carries null.
      yield* record("conversation_status_changed", { ...push, changed_attributes: null });
      if (after.status === "open") yield* record("conversation_opened", push);
      if (after.status === "resolved") yield* record("conversation_resolved", push);
    }
    if (triggersUpdate(changes)) yield* record("conversation_updated", { ...push, changed_attributes: changes });
    if (before.assignee_id !== after.assignee_id) yield* record("assignee_changed", push);
    if (before.team_id !== after.team_id) yield* record("team_changed", push);
    return changes;
  }

  /**
   * A saved status change whose activity message follows it: its events and the activity message's
   * message_created share one event view (built once, not once each). Returns the touched row.
   */
  *statusChangedSteps(
    a: Acting,
    before: ConversationRow,
    after: ConversationRow,
    content: string | null,
  ): Reads<ConversationRow> {
    const view = yield* this.readView(a, after);
    yield* this.changedSteps(a, before, after, undefined, view);
    return yield* this.activitySteps(a, after, content, view);
  }

  /** message_created for a message just inserted (the view must show the conversation after the insert). */
  *messageCreatedSteps(a: Acting, m: MessageRow, view: ConversationView): Reads<void> {
    const payload = messageWebhookData(m, view, conversationPushData(view));
    yield* this.recordSteps(a, "message_created", view.row, payload, m.private === 1);
  }

  /**
   * Writes an activity message (no sender) and its message_created. Like every message it moves
   * the conversation's last activity, silently (Chatwoot updates those columns without callbacks).
   * `view`: the event view of `row`, when the caller built it after its last write. An activity
   * message changes nothing the view shows but the row's times (an event view's newest messages
   * and unread count leave activity messages out), so it is reused with the touched row.
   */
  *activitySteps(
    a: Acting,
    row: ConversationRow,
    content: string | null,
    view?: ConversationView,
  ): Reads<ConversationRow> {
    if (!content) return row;
    const now = unixSeconds(this.d.clock);
    const message = yield* this.d.messages.insertSteps({
      account_id: row.account_id,
      inbox_id: row.inbox_id,
      conversation_id: row.id,
      message_type: ACTIVITY,
      content,
      content_type: "text",
      content_attributes: "{}",
      additional_attributes: "{}",
      private: 0,
      source_id: null,
      echo_id: null,
      sender_type: null,
      sender_id: null,
      created_at: now,
      updated_at: now,
    });
    const touched = { ...row, last_activity_at: now, updated_at_ms: this.d.clock.nowMs() };
    yield* this.d.conversations.touchSteps(touched);
    yield* this.messageCreatedSteps(a, message, view ? { ...view, row: touched } : yield* this.readView(a, touched));
    return touched;
  }
}

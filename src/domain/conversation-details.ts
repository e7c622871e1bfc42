// Changes to a conversation's details, as awaited bodies (writeTx.steps, src/db/tx.ts): its
// attribute objects, its labels and the agent's read marks. Each body reads the row again in its
// own transaction and saves it whole as of then, so that a change made since the route loaded it
// (a resolution sent at the same moment) stays. ConversationsService hands these on.
import type { ConversationRow, ConversationsRepo } from "../db/conversations.repo.ts";
import type { LabelsRepo } from "../db/labels.repo.ts";
import type { MessagesRepo } from "../db/messages.repo.ts";
import { type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import { labelActivity } from "./activity-messages.ts";
import { labelTitles } from "./contact-input.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import { objectValue } from "./conversation-input.ts";
import type { CustomAttributeValues } from "./custom-attribute-values.ts";
import { ValidationError } from "./errors.ts";
import type { MessageUpdatesService } from "./message-updates.service.ts";

export interface ConversationDetailsDeps {
  conversations: ConversationsRepo;
  labels: LabelsRepo;
  messages: MessagesRepo;
  events: ConversationEvents;
  messageUpdates: MessageUpdatesService;
  attributeValues: CustomAttributeValues;
  writeTx: WriteTx;
  clock: Clock;
}

type Merge = { additional?: Record<string, unknown>; custom?: Record<string, unknown> };

export class ConversationDetails {
  constructor(private readonly d: ConversationDetailsDeps) {}

  /** PATCH: the attribute objects given are merged into the row's. */
  async updateAttributes(
    a: Acting,
    row: ConversationRow,
    input: { additional_attributes?: unknown; custom_attributes?: unknown },
  ): Promise<ConversationRow> {
    const additional = objectValue("additional_attributes", input.additional_attributes);
    const custom = objectValue("custom_attributes", input.custom_attributes);
    if (!additional && !custom) return row;
    await this.readCheck(a, custom);
    return await this.d.writeTx.steps(() => this.attributesSteps(a, row, { additional, custom }, false));
  }

  /** POST custom_attributes: replaces the whole object (Chatwoot). */
  async setCustomAttributes(a: Acting, row: ConversationRow, raw: unknown): Promise<ConversationRow> {
    const custom = objectValue("custom_attributes", raw);
    if (!custom) throw ValidationError.of("custom_attributes", "can't be blank", "required");
    await this.readCheck(a, custom);
    return await this.d.writeTx.steps(() => this.attributesSteps(a, row, { custom }, true));
  }

  /** The values against their definitions: committed rows, on PostgreSQL's read pool. */
  private async readCheck(a: Acting, custom: Record<string, unknown> | undefined): Promise<void> {
    await readSoon(this.d.attributeValues.readCheck(a.account.id, "conversation_attribute", custom));
  }

  private *attributesSteps(a: Acting, loaded: ConversationRow, m: Merge, replace: boolean): Reads<ConversationRow> {
    const row = yield* this.d.events.readCurrent(loaded);
    const merged = (current: string, given: Record<string, unknown> | undefined) =>
      given ? JSON.stringify(replace ? given : { ...JSON.parse(current), ...given }) : current;
    const after: ConversationRow = {
      ...row,
      additional_attributes: merged(row.additional_attributes, m.additional),
      custom_attributes: merged(row.custom_attributes, m.custom),
      updated_at_ms: this.d.clock.nowMs(),
    };
    yield* this.d.conversations.saveSteps(after);
    yield* this.d.events.changedSteps(a, row, after);
    return after;
  }

  /** Replaces the labels; activity messages name what was added and removed. */
  async setLabels(a: Acting, row: ConversationRow, raw: unknown): Promise<string[]> {
    const titles = labelTitles("labels", raw);
    return await this.d.writeTx.steps(() => this.labelsSteps(a, row, titles));
  }

  /** setLabels() as steps, inside the caller's body (automation actions). */
  *setLabelsSteps(a: Acting, row: ConversationRow, raw: unknown): Reads<string[]> {
    return yield* this.labelsSteps(a, row, labelTitles("labels", raw));
  }

  private *labelsSteps(a: Acting, loaded: ConversationRow, titles: string[]): Reads<string[]> {
    const row = yield* this.d.events.readCurrent(loaded);
    const labels = this.d.labels;
    const before = yield* labels.readTitles("conversation", row.id);
    const { added, removed } = yield* labels.replaceSteps("conversation", row.id, a.account.id, titles);
    if (added.length === 0 && removed.length === 0) return before;
    const after = { ...row, updated_at_ms: this.d.clock.nowMs() };
    yield* this.d.conversations.saveSteps(after);
    const now = yield* labels.readTitles("conversation", row.id);
    yield* this.d.events.changedSteps(a, row, after, { before, after: now });
    const current = yield* this.d.events.activitySteps(a, after, labelActivity(a, "added", added));
    yield* this.d.events.activitySteps(a, current, labelActivity(a, "removed", removed));
    return now;
  }

  /**
   * The agent has read the conversation: the last-seen columns move (silently, as Chatwoot's), and
   * the contact's messages not read yet become read, each with its message_updated (Chatwoot's
   * UpdateMessageStatusJob), so the website chat shows the visitor "Read".
   */
  async markSeen(a: Acting, row: ConversationRow): Promise<ConversationRow> {
    return await this.d.writeTx.steps(() => this.markSeenSteps(a, row));
  }

  private *markSeenSteps(a: Acting, loaded: ConversationRow): Reads<ConversationRow> {
    const row = yield* this.d.events.readCurrent(loaded);
    const now = unixSeconds(this.d.clock);
    const after = seenAt(a, row, now);
    yield* this.d.conversations.saveSteps(after);
    const unread = yield* this.d.messages.readIncomingUnread(row.id, row.agent_last_seen_at ?? 0, now);
    yield* this.d.messageUpdates.markReadSteps(a, after, unread);
    return after;
  }

  /** Marks the last incoming message unread: last seen goes to one second before it (Chatwoot). */
  async markUnread(a: Acting, row: ConversationRow): Promise<ConversationRow> {
    return await this.d.writeTx.steps(() => this.markUnreadSteps(a, row));
  }

  private *markUnreadSteps(a: Acting, loaded: ConversationRow): Reads<ConversationRow> {
    const row = yield* this.d.events.readCurrent(loaded);
    const lastIncomingAt = yield* this.d.messages.readLastIncomingAt(row.id);
    const after = seenAt(a, row, lastIncomingAt === null ? null : lastIncomingAt - 1);
    yield* this.d.conversations.saveSteps(after);
    return after;
  }
}

/** The row with the agent's last-seen mark (and the assignee's, when the agent is the assignee). */
function seenAt(a: Acting, row: ConversationRow, seen: number | null): ConversationRow {
  const isAssignee = a.user !== null && row.assignee_id === a.user.id;
  return { ...row, agent_last_seen_at: seen, assignee_last_seen_at: isAssignee ? seen : row.assignee_last_seen_at };
}

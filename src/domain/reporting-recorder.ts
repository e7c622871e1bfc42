// Reporting events (chatwoot-behaviour §3.10), written inside the transaction of the change that
// causes them, by two explicit calls from the conversation write paths, made where the state
// before the change is still known:
//   - ConversationEvents.changed (every saved conversation change): resolutions, openings and
//     team moves;
//   - MessagesService (after its first-reply / waiting_since bookkeeping): first response and
//     reply time.
// Values are whole seconds; value_in_business_hours is the part inside the inbox's working hours
// (several intervals a day, overnight intervals, DST: domain/business-hours.ts), NULL when the
// inbox has working hours disabled.
import type { ConversationRow } from "../db/conversations.repo.ts";
import type { MessageRow } from "../db/messages.repo.ts";
import type { InboxHours, ReportingEventName, ReportingEventsRepo } from "../db/reporting-events.repo.ts";
import type { Reads } from "../db/reads.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { businessSeconds } from "./business-hours.ts";
import { isHumanReply } from "./human-reply.ts";
import { scheduleFromEntries, type WeeklySchedule, type WorkingHoursEntry } from "./working-hours.ts";

export interface ReportingRecorderDeps {
  reportingEvents: ReportingEventsRepo;
  clock: Clock;
}

/** Parsed schedules by their stored JSON, so a busy inbox does not re-parse its hours per event. */
const SCHEDULE_CACHE_LIMIT = 256;

export class ReportingRecorder {
  private readonly schedules = new Map<string, WeeklySchedule>();

  constructor(private readonly d: ReportingRecorderDeps) {}

  /** A saved conversation change (inside its writeTx), as steps (src/db/reads.ts). */
  *conversationChangedSteps(before: ConversationRow, after: ConversationRow): Reads<void> {
    const events = this.d.reportingEvents;
    if (before.team_id !== after.team_id) yield* events.setTeamSteps(after.id, after.team_id);
    if (before.status === after.status) return;
    const now = unixSeconds(this.d.clock);
    if (after.status === "resolved") {
      // Wall-clock time from creation to this resolution; the assignee gets the credit.
      yield* this.recordSteps("conversation_resolved", after, after.created_at, now, after.assignee_id);
    } else if (after.status === "open") {
      // 0 on a first opening (pending/snoozed → open), else the time since the last resolution.
      const resolvedAt = yield* events.readLastEnd(after.id, "conversation_resolved");
      yield* this.recordSteps("conversation_opened", after, resolvedAt ?? now, now, after.assignee_id);
    }
  }

  /**
   * A message was created; `before` and `after` are the conversation around its first-reply and
   * waiting_since bookkeeping (MessagesService.replyBookkeeping). The first human reply is a
   * first_response, measured from the last opening (else creation); a later human reply that ends
   * a wait is a reply_time, measured from waiting_since. Never both for one message.
   */
  *repliedSteps(before: ConversationRow, after: ConversationRow, m: MessageRow): Reads<void> {
    if (!isHumanReply(m)) return;
    if (before.first_reply_created_at === null && after.first_reply_created_at !== null) {
      const openedAt = yield* this.d.reportingEvents.readLastEnd(after.id, "conversation_opened");
      const start = Math.max(after.created_at, openedAt ?? after.created_at);
      yield* this.recordSteps("first_response", after, start, m.created_at, m.sender_id);
    } else if (before.waiting_since !== null && after.waiting_since === null) {
      yield* this.recordSteps("reply_time", after, before.waiting_since, m.created_at, after.assignee_id);
    }
  }

  private *recordSteps(
    name: ReportingEventName,
    c: ConversationRow,
    start: number,
    end: number,
    userId: number | null,
  ): Reads<void> {
    const from = Math.min(start, end);
    yield* this.d.reportingEvents.insertSteps({
      name,
      value: end - from,
      value_in_business_hours: yield* this.businessValue(c.inbox_id, from, end),
      account_id: c.account_id,
      inbox_id: c.inbox_id,
      user_id: userId,
      team_id: c.team_id,
      conversation_id: c.id,
      event_start_time: from,
      event_end_time: end,
      created_at: unixSeconds(this.d.clock),
    });
  }

  private *businessValue(inboxId: number, start: number, end: number): Reads<number | null> {
    const inbox = yield* this.d.reportingEvents.readInboxHours(inboxId);
    if (inbox?.working_hours_enabled !== 1) return null;
    return Math.round(businessSeconds(start, end, this.schedule(inbox), inbox.timezone));
  }

  private schedule(inbox: InboxHours): WeeklySchedule {
    let s = this.schedules.get(inbox.working_hours);
    if (!s) {
      if (this.schedules.size >= SCHEDULE_CACHE_LIMIT) this.schedules.clear();
      s = scheduleFromEntries(JSON.parse(inbox.working_hours) as WorkingHoursEntry[]);
      this.schedules.set(inbox.working_hours, s);
    }
    return s;
  }
}

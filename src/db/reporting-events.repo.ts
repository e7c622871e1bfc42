// Writes of reporting events and the few reads the recorder needs while it writes them (always one
// conversation's own events through reporting_events_conversation). The reports' aggregates are in
// reports.repo.ts.
import type { Database, Statement } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export type ReportingEventName = "first_response" | "reply_time" | "conversation_resolved" | "conversation_opened";

export interface NewReportingEvent {
  name: ReportingEventName;
  value: number;
  value_in_business_hours: number | null;
  account_id: number;
  inbox_id: number;
  user_id: number | null;
  team_id: number | null;
  conversation_id: number;
  event_start_time: number;
  event_end_time: number;
  created_at: number;
}

export interface ReportingEventRow extends NewReportingEvent {
  id: number;
}

/** What business-hours arithmetic needs of an inbox. */
export interface InboxHours {
  working_hours_enabled: number;
  working_hours: string;
  timezone: string;
}

export class ReportingEventsRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly lastEndStmt: TwoWayStatement;
  private readonly setTeamStmt: TwoWayStatement;
  private readonly hoursStmt: TwoWayStatement;
  private readonly ofConversationStmt: Statement;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO reporting_events (name, value, value_in_business_hours, account_id, inbox_id, user_id, team_id, conversation_id,
         event_start_time, event_end_time, created_at)
       VALUES ($name, $value, $value_in_business_hours, $account_id, $inbox_id, $user_id, $team_id, $conversation_id,
         $event_start_time, $event_end_time, $created_at)`,
    );
    this.lastEndStmt = new TwoWayStatement(
      db,
      "SELECT max(event_end_time) AS at FROM reporting_events WHERE conversation_id = $conversation_id AND name = $name",
    );
    this.setTeamStmt = new TwoWayStatement(
      db,
      "UPDATE reporting_events SET team_id = $team_id WHERE conversation_id = $conversation_id",
    );
    this.hoursStmt = new TwoWayStatement(
      db,
      "SELECT working_hours_enabled, working_hours, timezone FROM inboxes WHERE id = $id",
    );
    this.ofConversationStmt = db.prepare(
      "SELECT * FROM reporting_events WHERE conversation_id = $conversation_id ORDER BY id",
    );
  }

  *insertSteps(e: NewReportingEvent): Reads<void> {
    yield this.insertStmt.write({ ...e } as unknown as Record<string, string | number | null>);
  }

  /** When the conversation's latest event of this name ended; null if it has none. */
  *readLastEnd(conversationId: number, name: ReportingEventName): Reads<number | null> {
    return ((yield this.lastEndStmt.get({ conversation_id: conversationId, name })) as { at: number | null }).at;
  }

  /** The conversation moved to another team (or none): its events follow it. */
  *setTeamSteps(conversationId: number, teamId: number | null): Reads<void> {
    yield this.setTeamStmt.write({ conversation_id: conversationId, team_id: teamId });
  }

  *readInboxHours(inboxId: number): Reads<InboxHours | null> {
    return (yield this.hoursStmt.get({ id: inboxId })) as InboxHours | null;
  }

  /** A conversation's events, oldest first (tests and support questions). */
  ofConversation(conversationId: number): ReportingEventRow[] {
    return this.ofConversationStmt.all({ conversation_id: conversationId }) as ReportingEventRow[];
  }
}

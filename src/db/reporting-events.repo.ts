// Writes of reporting events and the few reads the recorder needs while it writes them (always one
// conversation's own events through reporting_events_conversation). The reports' aggregates are in
// reports.repo.ts.
import type { Database, Statement } from "bun:sqlite";

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
  private readonly insertStmt: Statement;
  private readonly lastEndStmt: Statement;
  private readonly setTeamStmt: Statement;
  private readonly hoursStmt: Statement;
  private readonly ofConversationStmt: Statement;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO reporting_events (name, value, value_in_business_hours, account_id, inbox_id, user_id, team_id, conversation_id,
         event_start_time, event_end_time, created_at)
       VALUES ($name, $value, $value_in_business_hours, $account_id, $inbox_id, $user_id, $team_id, $conversation_id,
         $event_start_time, $event_end_time, $created_at)`,
    );
    this.lastEndStmt = db.prepare(
      "SELECT max(event_end_time) AS at FROM reporting_events WHERE conversation_id = $conversation_id AND name = $name",
    );
    this.setTeamStmt = db.prepare(
      "UPDATE reporting_events SET team_id = $team_id WHERE conversation_id = $conversation_id",
    );
    this.hoursStmt = db.prepare("SELECT working_hours_enabled, working_hours, timezone FROM inboxes WHERE id = $id");
    this.ofConversationStmt = db.prepare(
      "SELECT * FROM reporting_events WHERE conversation_id = $conversation_id ORDER BY id",
    );
  }

  insert(e: NewReportingEvent): number {
    return Number(this.insertStmt.run({ ...e }).lastInsertRowid);
  }

  /** When the conversation's latest event of this name ended; null if it has none. */
  lastEnd(conversationId: number, name: ReportingEventName): number | null {
    return (this.lastEndStmt.get({ conversation_id: conversationId, name }) as { at: number | null }).at;
  }

  /** The conversation moved to another team (or none): its events follow it. */
  setTeam(conversationId: number, teamId: number | null): void {
    this.setTeamStmt.run({ conversation_id: conversationId, team_id: teamId });
  }

  inboxHours(inboxId: number): InboxHours | null {
    return (this.hoursStmt.get({ id: inboxId }) as InboxHours | null) ?? null;
  }

  /** A conversation's events, oldest first (tests and support questions). */
  ofConversation(conversationId: number): ReportingEventRow[] {
    return this.ofConversationStmt.all({ conversation_id: conversationId }) as ReportingEventRow[];
  }
}

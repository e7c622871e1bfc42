// The summary reports' aggregates: every figure is one SQL aggregate over a covering index
// (reporting_events_report, conversations_account_created, messages_account_type_time); no rows
// are brought into the process to be added up. Ranges are half-open: since <= created_at < until.
import type { Database, Statement } from "bun:sqlite";

/** What the per-row averages are taken over: wall-clock seconds or business-hours seconds. */
export type ValueColumn = "value" | "value_in_business_hours";

/** The grouping of a summary: by the event's/conversation's team, agent or inbox, or the whole account. */
export type Dimension = "team" | "agent" | "inbox" | "account";

export interface EventFigures {
  resolved: number;
  avg_resolution_time: number | null;
  avg_first_response_time: number | null;
  avg_reply_time: number | null;
}

export interface Range {
  since: number;
  until: number;
}

// Events are grouped by their own columns (team_id follows the conversation's current team);
// conversations by their current team, assignee or inbox.
const EVENT_KEY: Record<Dimension, string> = { team: "team_id", agent: "user_id", inbox: "inbox_id", account: "account_id" };
const CONVERSATION_KEY: Record<Dimension, string> = { team: "team_id", agent: "assignee_id", inbox: "inbox_id", account: "account_id" };
const VALUE_COLUMNS: ValueColumn[] = ["value", "value_in_business_hours"];

const figures = (col: string, alias = "") => `
  count(CASE WHEN ${alias}name = 'conversation_resolved' THEN 1 END) AS resolved,
  avg(CASE WHEN ${alias}name = 'conversation_resolved' THEN ${alias}${col} END) AS avg_resolution_time,
  avg(CASE WHEN ${alias}name = 'first_response' THEN ${alias}${col} END) AS avg_first_response_time,
  avg(CASE WHEN ${alias}name = 'reply_time' THEN ${alias}${col} END) AS avg_reply_time`;
// The IN list lets the planner walk three (account, name) ranges of the index, skipping openings.
const EVENTS_IN_RANGE = (alias = "") =>
  `${alias}account_id = $account_id AND ${alias}name IN ('conversation_resolved', 'first_response', 'reply_time')
   AND ${alias}created_at >= $since AND ${alias}created_at < $until`;

const eventSql = (dim: Dimension, col: ValueColumn) =>
  `SELECT ${EVENT_KEY[dim]} AS id, ${figures(col)} FROM reporting_events WHERE ${EVENTS_IN_RANGE()} GROUP BY ${EVENT_KEY[dim]}`;
const conversationSql = (dim: Dimension) =>
  `SELECT ${CONVERSATION_KEY[dim]} AS id, count(*) AS n FROM conversations
   WHERE account_id = $account_id AND created_at >= $since AND created_at < $until GROUP BY ${CONVERSATION_KEY[dim]}`;

type Keyed<T> = Map<number | string, T>;

export class ReportsRepo {
  private readonly eventStmts = new Map<string, Statement>();
  private readonly conversationStmts = new Map<Dimension, Statement>();
  private readonly labelEventStmts = new Map<ValueColumn, Statement>();
  private readonly labelConversationsStmt: Statement;
  private readonly labelTitlesStmt: Statement;
  private readonly messagesStmt: Statement;
  private readonly teamIdsStmt: Statement;
  private readonly agentIdsStmt: Statement;
  private readonly inboxIdsStmt: Statement;

  constructor(private readonly db: Database) {
    for (const dim of Object.keys(EVENT_KEY) as Dimension[]) {
      for (const col of VALUE_COLUMNS) {
        this.eventStmts.set(`${dim}:${col}`, db.prepare(eventSql(dim, col)));
      }
      this.conversationStmts.set(dim, db.prepare(conversationSql(dim)));
    }
    // Labels are the conversation's current labels, joined per event / conversation.
    for (const col of VALUE_COLUMNS) {
      this.labelEventStmts.set(
        col,
        db.prepare(
          `SELECT l.title AS id, ${figures(col, "e.")} FROM reporting_events e
           JOIN conversation_labels l ON l.conversation_id = e.conversation_id
           WHERE ${EVENTS_IN_RANGE("e.")} GROUP BY l.title`,
        ),
      );
    }
    this.labelConversationsStmt = db.prepare(
      `SELECT l.title AS id, count(*) AS n FROM conversations c JOIN conversation_labels l ON l.conversation_id = c.id
       WHERE c.account_id = $account_id AND c.created_at >= $since AND c.created_at < $until GROUP BY l.title`,
    );
    // Distinct titles by hopping from one title to the next in (account_id, title): one index seek
    // per label instead of a scan of every tagging.
    this.labelTitlesStmt = db.prepare(
      `WITH RECURSIVE t(title) AS (
         SELECT (SELECT min(title) FROM conversation_labels WHERE account_id = $account_id)
         UNION ALL
         SELECT (SELECT min(title) FROM conversation_labels WHERE account_id = $account_id AND title > t.title) FROM t WHERE t.title IS NOT NULL
       )
       SELECT title FROM t WHERE title IS NOT NULL`,
    );
    this.messagesStmt = db.prepare(
      "SELECT count(*) AS n FROM messages WHERE account_id = $account_id AND message_type = $type AND created_at >= $since AND created_at < $until",
    );
    this.teamIdsStmt = db.prepare("SELECT id FROM teams WHERE account_id = $account_id ORDER BY id");
    this.agentIdsStmt = db.prepare("SELECT user_id AS id FROM account_users WHERE account_id = $account_id ORDER BY user_id");
    this.inboxIdsStmt = db.prepare("SELECT id FROM inboxes WHERE account_id = $account_id ORDER BY id");
  }

  /** Resolutions and averages of the events created in the range, per group. */
  eventFigures(accountId: number, dim: Dimension, range: Range, col: ValueColumn): Keyed<EventFigures> {
    return keyed(this.eventStmts.get(`${dim}:${col}`)!.all({ account_id: accountId, ...range }) as (EventFigures & { id: number })[]);
  }

  /** Conversations created in the range, per group. */
  conversationCounts(accountId: number, dim: Dimension, range: Range): Keyed<number> {
    return counts(this.conversationStmts.get(dim)!.all({ account_id: accountId, ...range }) as { id: number; n: number }[]);
  }

  labelEventFigures(accountId: number, range: Range, col: ValueColumn): Keyed<EventFigures> {
    return keyed(this.labelEventStmts.get(col)!.all({ account_id: accountId, ...range }) as (EventFigures & { id: string })[]);
  }

  labelConversationCounts(accountId: number, range: Range): Keyed<number> {
    return counts(this.labelConversationsStmt.all({ account_id: accountId, ...range }) as { id: string; n: number }[]);
  }

  /** Messages of one type (0 incoming, 1 outgoing) created in the range. */
  messageCount(accountId: number, type: number, range: Range): number {
    return (this.messagesStmt.get({ account_id: accountId, type, ...range }) as { n: number }).n;
  }

  /** The rows each summary shows, in id (labels: title) order, whether or not they have data. */
  groups(accountId: number, dim: Exclude<Dimension, "account">): number[] {
    const stmt = dim === "team" ? this.teamIdsStmt : dim === "agent" ? this.agentIdsStmt : this.inboxIdsStmt;
    return (stmt.all({ account_id: accountId }) as { id: number }[]).map((r) => r.id);
  }

  labelTitles(accountId: number): string[] {
    return (this.labelTitlesStmt.all({ account_id: accountId }) as { title: string }[]).map((r) => r.title);
  }

  /** EXPLAIN QUERY PLAN of a summary's statements (the benchmark prints them). */
  plans(dim: Dimension, col: ValueColumn): string[] {
    const plan = (sql: string) =>
      (this.db.query(`EXPLAIN QUERY PLAN ${sql}`).all({ account_id: 1, since: 0, until: 1 }) as { detail: string }[]).map((r) => r.detail).join(" / ");
    return [plan(eventSql(dim, col)), plan(conversationSql(dim))];
  }
}

function keyed<K extends number | string>(rows: (EventFigures & { id: K })[]): Keyed<EventFigures> {
  const map: Keyed<EventFigures> = new Map();
  for (const { id, ...f } of rows) map.set(id, f);
  return map;
}

function counts<K extends number | string>(rows: { id: K; n: number }[]): Keyed<number> {
  return new Map(rows.map((r) => [r.id, r.n]));
}

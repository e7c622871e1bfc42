// The summary reports' aggregates: every figure is one SQL aggregate over a covering index; no rows
// are brought into the process to be added up. Ranges are half-open: since <= created_at < until.
//
// Shape of every statement (see migrations/009_reporting.sql): the groups of the account come from
// a subquery (`team_id IN (SELECT id FROM teams WHERE account_id = ?)`), and for each group the
// index holds (name, created_at, value, value_in_business_hours) in order, so SQLite seeks one
// slice per group and metric and aggregates it without sorting. One statement per metric name: a
// CASE per name in one statement measured twice as slow.
//
// The aggregates are awaited (async-reads.ts): on PostgreSQL a summary then runs on the read pool
// while the process serves other requests, and its three metrics' statements run at once.
import { prepareRead, type ReadStatement } from "./async-reads.ts";
import { dialect } from "./dialect.ts";
import { isPostgres } from "./postgres/database.ts";
import type { Database, Statement } from "bun:sqlite";

/** What the averages are taken over: wall-clock seconds or business-hours seconds. */
export type ValueColumn = "value" | "value_in_business_hours";

/** The grouping of a summary; `account` is the whole account (every inbox of it) in one row. */
export type Dimension = "team" | "agent" | "inbox" | "account";
export type GroupDimension = Exclude<Dimension, "account">;

export type MetricName = "conversation_resolved" | "first_response" | "reply_time";
const METRICS: MetricName[] = ["conversation_resolved", "first_response", "reply_time"];
const VALUE_COLUMNS: ValueColumn[] = ["value", "value_in_business_hours"];

/** Number of events and average value of one metric. */
export interface Metric {
  n: number;
  average: number | null;
}

export type EventFigures = Record<MetricName, Metric>;

export interface Range {
  since: number;
  until: number;
}

const IDS: Record<GroupDimension, string> = {
  team: "SELECT id FROM teams WHERE account_id = $account_id",
  agent: "SELECT user_id FROM account_users WHERE account_id = $account_id",
  inbox: "SELECT id FROM inboxes WHERE account_id = $account_id",
};

interface Grouping {
  /** Events: the group column, and the filter that picks the account's groups. */
  eventKey: string;
  events: string;
  /** Conversations: the same for the conversation's current team / assignee / inbox. */
  conversationKey: string;
  conversations: string;
  grouped: boolean;
}

// A user can belong to several accounts, hence the extra account_id for agents.
const GROUPINGS: Record<Dimension, Grouping> = {
  team: {
    eventKey: "team_id",
    events: `team_id IN (${IDS.team})`,
    conversationKey: "team_id",
    conversations: `team_id IN (${IDS.team})`,
    grouped: true,
  },
  agent: {
    eventKey: "user_id",
    events: `user_id IN (${IDS.agent}) AND account_id = $account_id`,
    conversationKey: "assignee_id",
    conversations: `assignee_id IN (${IDS.agent}) AND account_id = $account_id`,
    grouped: true,
  },
  inbox: {
    eventKey: "inbox_id",
    events: `inbox_id IN (${IDS.inbox})`,
    conversationKey: "inbox_id",
    conversations: `inbox_id IN (${IDS.inbox})`,
    grouped: true,
  },
  // Every conversation and event belongs to an inbox of its account: the account is their union.
  account: {
    eventKey: "0",
    events: `inbox_id IN (${IDS.inbox})`,
    conversationKey: "0",
    conversations: `inbox_id IN (${IDS.inbox})`,
    grouped: false,
  },
};

const IN_RANGE = "created_at >= $since AND created_at < $until";

const eventSql = (dim: Dimension, col: ValueColumn) => {
  const g = GROUPINGS[dim];
  return `SELECT ${g.eventKey} AS id, count(*) AS n, avg(${col}) AS average FROM reporting_events
    WHERE ${g.events} AND name = $name AND ${IN_RANGE}${g.grouped ? ` GROUP BY ${g.eventKey}` : ""}`;
};
const conversationSql = (dim: Dimension) => {
  const g = GROUPINGS[dim];
  return `SELECT ${g.conversationKey} AS id, count(*) AS n FROM conversations
    WHERE ${g.conversations} AND ${IN_RANGE}${g.grouped ? ` GROUP BY ${g.conversationKey}` : ""}`;
};

type Key = number | string;

export class ReportsRepo {
  private readonly eventStmts = new Map<string, ReadStatement>();
  private readonly conversationStmts = new Map<Dimension, ReadStatement>();
  private readonly groupStmts = new Map<GroupDimension, ReadStatement>();
  private readonly labelEventStmts = new Map<ValueColumn, ReadStatement>();
  private readonly labelConversationsStmt: ReadStatement;
  private readonly labelTitlesStmt: ReadStatement;
  private readonly messagesStmt: ReadStatement;
  private readonly dataVersionStmt: Statement;
  /** PostgreSQL only: SQLite's version is a pragma answered in place. */
  private readonly dataVersionRead: ReadStatement | null;

  constructor(private readonly db: Database) {
    // Other processes' commits. SQLite counts them per connection. On PostgreSQL, the WAL's insert
    // position: every commit that writes moves it before it becomes visible, so a version read after
    // another process's commit is always a new one (other databases' writes move it too: a needless
    // recount, never a stale answer). Not pg_stat_database.xact_commit: a session reports its commits
    // to the statistics at most once a second, and a cached count then lagged behind another process.
    const dataVersion = dialect(db, {
      sqlite: "PRAGMA data_version",
      postgres: "SELECT pg_current_wal_insert_lsn()::text AS data_version",
    });
    this.dataVersionStmt = db.prepare(dataVersion);
    this.dataVersionRead = isPostgres(db) ? prepareRead(db, dataVersion) : null;
    for (const dim of Object.keys(GROUPINGS) as Dimension[]) {
      for (const col of VALUE_COLUMNS) this.eventStmts.set(`${dim}:${col}`, prepareRead(db, eventSql(dim, col)));
      this.conversationStmts.set(dim, prepareRead(db, conversationSql(dim)));
    }
    for (const dim of Object.keys(IDS) as GroupDimension[])
      this.groupStmts.set(dim, prepareRead(db, `${IDS[dim]} ORDER BY 1`));
    // Labels are the conversations' current labels: each event or conversation of the range is
    // joined to its labels (conversation_labels_conversation_title covers the lookup).
    for (const col of VALUE_COLUMNS) {
      this.labelEventStmts.set(
        col,
        prepareRead(
          db,
          `SELECT l.title AS id, count(*) AS n, avg(e.${col}) AS average FROM reporting_events e
           JOIN conversation_labels l ON l.conversation_id = e.conversation_id
           WHERE e.inbox_id IN (${IDS.inbox}) AND e.name = $name AND e.created_at >= $since AND e.created_at < $until
           GROUP BY l.title`,
        ),
      );
    }
    this.labelConversationsStmt = prepareRead(
      db,
      `SELECT l.title AS id, count(*) AS n FROM conversations c JOIN conversation_labels l ON l.conversation_id = c.id
       WHERE c.inbox_id IN (${IDS.inbox}) AND c.created_at >= $since AND c.created_at < $until GROUP BY l.title`,
    );
    // Distinct titles by hopping from one title to the next in (account_id, title): one index seek
    // per label instead of a scan of every tagging.
    this.labelTitlesStmt = prepareRead(
      db,
      `WITH RECURSIVE t(title) AS (
         SELECT (SELECT min(title) FROM conversation_labels WHERE account_id = $account_id)
         UNION ALL
         SELECT (SELECT min(title) FROM conversation_labels WHERE account_id = $account_id AND title > t.title) FROM t WHERE t.title IS NOT NULL
       )
       SELECT title FROM t WHERE title IS NOT NULL`,
    );
    this.messagesStmt = prepareRead(
      db,
      `SELECT count(*) AS n FROM messages WHERE account_id = $account_id AND message_type = $type AND ${IN_RANGE}`,
    );
  }

  /** Count and average of each metric over the events created in the range, per group (account: key 0). */
  eventFigures(accountId: number, dim: Dimension, range: Range, col: ValueColumn): Promise<Map<Key, EventFigures>> {
    const stmt = this.eventStmts.get(`${dim}:${col}`)!;
    return byGroup((name) => stmt.all<MetricRow>({ account_id: accountId, name, ...range }));
  }

  /** Conversations created in the range, per group (account: key 0). */
  async conversationCounts(accountId: number, dim: Dimension, range: Range): Promise<Map<Key, number>> {
    return counts(await this.conversationStmts.get(dim)!.all<CountRow>({ account_id: accountId, ...range }));
  }

  labelEventFigures(accountId: number, range: Range, col: ValueColumn): Promise<Map<Key, EventFigures>> {
    const stmt = this.labelEventStmts.get(col)!;
    return byGroup((name) => stmt.all<MetricRow>({ account_id: accountId, name, ...range }));
  }

  async labelConversationCounts(accountId: number, range: Range): Promise<Map<Key, number>> {
    return counts(await this.labelConversationsStmt.all<CountRow>({ account_id: accountId, ...range }));
  }

  /** Messages of one type (0 incoming, 1 outgoing) created in the range. */
  async messageCount(accountId: number, type: number, range: Range): Promise<number> {
    return (await this.messagesStmt.get<{ n: number }>({ account_id: accountId, type, ...range }))!.n;
  }

  /** The rows a summary shows, in id order, whether or not they have data. */
  async groups(accountId: number, dim: GroupDimension): Promise<number[]> {
    return (await this.groupStmts.get(dim)!.values<[number]>({ account_id: accountId })).map((r) => r[0]);
  }

  async labelTitles(accountId: number): Promise<string[]> {
    return (await this.labelTitlesStmt.all<{ title: string }>({ account_id: accountId })).map((r) => r.title);
  }

  /** Changes when another connection (another process, a CLI command, a backup restore) commits. */
  dataVersion(): number | string {
    return (this.dataVersionStmt.get() as { data_version: number | string }).data_version;
  }

  /** dataVersion() awaited: on PostgreSQL on the read pool (the WAL position is the server's, whichever connection asks). */
  async dataVersionSoon(): Promise<number | string> {
    if (!this.dataVersionRead) return this.dataVersion();
    return (await this.dataVersionRead.get<{ data_version: number | string }>())!.data_version;
  }

  /** EXPLAIN QUERY PLAN of a summary's statements (the benchmark prints them). */
  plans(dim: Dimension, col: ValueColumn): string[] {
    const plan = (sql: string) =>
      (
        this.db
          .query(`EXPLAIN QUERY PLAN ${sql}`)
          .all({ account_id: 1, name: "first_response", since: 0, until: 1 }) as { detail: string }[]
      )
        .map((r) => r.detail)
        .join(" / ");
    return [plan(eventSql(dim, col)), plan(conversationSql(dim))];
  }
}

interface MetricRow extends Metric {
  id: Key;
}

interface CountRow {
  id: Key;
  n: number;
}

const NO_METRIC: Metric = { n: 0, average: null };
/** A group without events in the range. */
export const NO_EVENTS: Readonly<EventFigures> = {
  conversation_resolved: NO_METRIC,
  first_response: NO_METRIC,
  reply_time: NO_METRIC,
};

/** Merges the per-metric result sets into one record per group. */
async function byGroup(query: (name: MetricName) => Promise<MetricRow[]>): Promise<Map<Key, EventFigures>> {
  const map = new Map<Key, EventFigures>();
  const results = await Promise.all(METRICS.map(query));
  for (const [i, name] of METRICS.entries()) {
    for (const { id, n, average } of results[i]!) {
      if (n === 0) continue; // the ungrouped (account) statement answers a row even with no events
      let f = map.get(id);
      if (!f) {
        f = { ...NO_EVENTS };
        map.set(id, f);
      }
      f[name] = { n, average };
    }
  }
  return map;
}

function counts(rows: CountRow[]): Map<Key, number> {
  return new Map(rows.map((r) => [r.id, r.n]));
}

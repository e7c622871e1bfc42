// The conversation list's queries: a page under the list's filters (inbox, team, status, labels,
// search, a contact) and sort, and the counts of its assignee tabs from the tallies the triggers
// keep (migration 010). Apart from ConversationsRepo (a conversation's own row: insert, save,
// lookups by id), because these statements are built per filter shape and read by lists only.
import type { Database } from "bun:sqlite";
import { StatementCache } from "./batch.ts";
import type { ConversationRow, ConversationStatus } from "./conversations.repo.ts";
import { type Reads, readNow, TwoWayStatement } from "./reads.ts";

/** Filters of the conversation list, already validated; null = not filtered. */
export interface ConversationFilter {
  accountId: number;
  /** Restrict to these inboxes (an agent's inboxes); null = every inbox of the account. */
  inboxIds: number[] | null;
  status: ConversationStatus | null;
  teamId: number | null;
  labels: string[] | null;
  q: string | null;
  /** With `q`: contacts whose name, email or phone matched it (their conversations match too). */
  qContactIds?: number[] | null;
  contactId?: number | null;
}

/** Chatwoot's sort_by choices: newest activity (the default), creation, priority, longest waiting. */
export type ConversationSort = "latest" | "created" | "priority" | "waiting";

const ORDER_BY: Record<ConversationSort, string> = {
  latest: "c.last_activity_at DESC, c.id DESC",
  // Display ids grow with creation: the same order as created_at, read from an index.
  created: "c.display_id ASC",
  priority:
    "CASE c.priority WHEN 'urgent' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 ELSE 0 END DESC, c.last_activity_at DESC, c.id DESC",
  waiting: "c.waiting_since IS NULL, c.waiting_since ASC, c.id ASC",
};

export type AssigneeFilter =
  | { kind: "all" }
  | { kind: "me"; userId: number }
  | { kind: "unassigned" }
  | { kind: "assigned" };

export interface ConversationCounts {
  mine_count: number;
  assigned_count: number;
  unassigned_count: number;
  all_count: number;
}

export class ConversationListsRepo {
  private readonly cache: StatementCache<TwoWayStatement>;

  constructor(db: Database) {
    this.cache = new StatementCache(db, Number.POSITIVE_INFINITY, (sql) => new TwoWayStatement(db, sql));
  }

  /**
   * Counts for the list's meta: after every filter but the assignee one (Chatwoot's order). Filters
   * the tallies know (inbox, team, status) sum a few tally rows; labels, search and a contact need
   * the conversations themselves.
   */
  counts(f: ConversationFilter, userId: number): ConversationCounts {
    return readNow(this.readCounts(f, userId));
  }

  *readCounts(f: ConversationFilter, userId: number): Reads<ConversationCounts> {
    if ((f.labels && f.labels.length > 0) || f.q || f.contactId) return yield* this.readCountedByScan(f, userId);
    // The tallies have the conversations' inbox, team and status columns, unqualified.
    const { where, params } = whereOf(f, "");
    return (yield this.stmt(
      `SELECT coalesce(sum(n), 0) AS all_count,
              coalesce(sum(CASE WHEN assignee_id = $me THEN n END), 0) AS mine_count,
              coalesce(sum(CASE WHEN assignee_id = 0 THEN n END), 0) AS unassigned_count,
              coalesce(sum(CASE WHEN assignee_id <> 0 THEN n END), 0) AS assigned_count
       FROM conversation_tallies WHERE ${where}`,
    ).get({ ...params, me: userId || -1 })) as ConversationCounts;
  }

  /** The same counts by visiting every matching conversation (and the check of the tallies in tests). */
  countedByScan(f: ConversationFilter, userId: number): ConversationCounts {
    return readNow(this.readCountedByScan(f, userId));
  }

  private *readCountedByScan(f: ConversationFilter, userId: number): Reads<ConversationCounts> {
    const { where, params } = whereOf(f);
    return (yield this.stmt(
      `SELECT count(*) AS all_count,
              coalesce(sum(assignee_id = $me), 0) AS mine_count,
              coalesce(sum(assignee_id IS NULL), 0) AS unassigned_count,
              coalesce(sum(assignee_id IS NOT NULL), 0) AS assigned_count
       FROM conversations c WHERE ${where}`,
    ).get({ ...params, me: userId })) as ConversationCounts;
  }

  /** One page, newest activity first unless `sort` says otherwise. */
  page(
    f: ConversationFilter,
    assignee: AssigneeFilter,
    limit: number,
    offset: number,
    sort: ConversationSort = "latest",
  ): ConversationRow[] {
    return readNow(this.readPage(f, assignee, limit, offset, sort));
  }

  *readPage(
    f: ConversationFilter,
    assignee: AssigneeFilter,
    limit: number,
    offset: number,
    sort: ConversationSort = "latest",
  ): Reads<ConversationRow[]> {
    const { where, params } = whereOf(f);
    const extra =
      assignee.kind === "me"
        ? " AND c.assignee_id = $me"
        : assignee.kind === "unassigned"
          ? " AND c.assignee_id IS NULL"
          : assignee.kind === "assigned"
            ? " AND c.assignee_id IS NOT NULL"
            : "";
    const sql = `SELECT c.* FROM conversations c WHERE ${where}${extra} ORDER BY ${ORDER_BY[sort]} LIMIT $limit OFFSET $offset`;
    const all = { ...params, limit, offset, ...(assignee.kind === "me" ? { me: assignee.userId } : {}) };
    return (yield this.stmt(sql).all(all)) as ConversationRow[];
  }

  private stmt(sql: string): TwoWayStatement {
    return this.cache.get(sql);
  }
}

/** `col` qualifies the conversation's own columns ("c." here, "" for the tallies, which only take inbox, team and status filters). */
function whereOf(f: ConversationFilter, col = "c."): { where: string; params: Record<string, string | number> } {
  const parts = [`${col}account_id = $account_id`];
  const params: Record<string, string | number> = { account_id: f.accountId };
  if (f.inboxIds) {
    parts.push(`${col}inbox_id IN (SELECT value FROM json_each($inbox_ids))`);
    params.inbox_ids = JSON.stringify(f.inboxIds);
  }
  if (f.contactId) {
    parts.push(`${col}contact_id = $contact_id`);
    params.contact_id = f.contactId;
  }
  if (f.status) {
    parts.push(`${col}status = $status`);
    params.status = f.status;
  }
  if (f.teamId) {
    parts.push(`${col}team_id = $team_id`);
    params.team_id = f.teamId;
  }
  if (f.labels && f.labels.length > 0) {
    // Named indexes here and below: the plan must not follow the statistics (test/db/planner-statistics.test.ts).
    parts.push(
      "c.id IN (SELECT conversation_id FROM conversation_labels INDEXED BY conversation_labels_account_title WHERE account_id = $account_id AND title IN (SELECT value FROM json_each($labels)))",
    );
    params.labels = JSON.stringify(f.labels);
  }
  if (f.q) {
    // Chatwoot: conversations with an incoming or outgoing message containing the text; ours also
    // those of the contacts the text names (name, email, phone: found by the contact search).
    const inMessages =
      "EXISTS (SELECT 1 FROM messages m INDEXED BY messages_conversation WHERE m.conversation_id = c.id AND m.message_type IN (0, 1) AND instr(lower(m.content), $q) > 0)";
    if (f.qContactIds && f.qContactIds.length > 0) {
      parts.push(`(${inMessages} OR c.contact_id IN (SELECT value FROM json_each($q_contacts)))`);
      params.q_contacts = JSON.stringify(f.qContactIds);
    } else parts.push(inMessages);
    params.q = f.q.toLowerCase();
  }
  return { where: parts.join(" AND "), params };
}

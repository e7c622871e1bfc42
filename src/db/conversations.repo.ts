import type { Database, Statement } from "bun:sqlite";
import { StatementCache } from "./batch.ts";
import { type Reads, readNow, TwoWayStatement } from "./reads.ts";

export type ConversationStatus = "open" | "resolved" | "pending" | "snoozed";
export type Priority = "low" | "medium" | "high" | "urgent";

export interface ConversationRow {
  id: number;
  account_id: number;
  display_id: number;
  uuid: string;
  inbox_id: number;
  contact_id: number;
  contact_inbox_id: number;
  status: ConversationStatus;
  priority: Priority | null;
  assignee_id: number | null;
  team_id: number | null;
  snoozed_until: number | null;
  waiting_since: number | null;
  first_reply_created_at: number | null;
  agent_last_seen_at: number | null;
  assignee_last_seen_at: number | null;
  contact_last_seen_at: number | null;
  last_activity_at: number;
  additional_attributes: string;
  custom_attributes: string;
  created_at: number;
  updated_at_ms: number;
  /** Kept by triggers (migration 022), read only by list pages: see ViewOptions.fresh. JSON array of titles. */
  label_list: string;
  /** Incoming messages since the agent last looked, uncapped (triggers). */
  unread_incoming: number;
  /** The newest message of any kind (triggers). */
  last_message_id: number | null;
}

/** Columns a change may write; the service computes the next row and saves it whole. */
export const MUTABLE_COLUMNS = [
  "status",
  "priority",
  "assignee_id",
  "team_id",
  "snoozed_until",
  "waiting_since",
  "first_reply_created_at",
  "agent_last_seen_at",
  "assignee_last_seen_at",
  "contact_last_seen_at",
  "last_activity_at",
  "additional_attributes",
  "custom_attributes",
  "updated_at_ms",
] as const satisfies readonly (keyof ConversationRow)[];

/** What an insert supplies: the triggers fill the list columns. */
export type NewConversation = Omit<
  ConversationRow,
  "id" | "display_id" | "label_list" | "unread_incoming" | "last_message_id"
>;

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

export class ConversationsRepo {
  private readonly insertStmt: Statement;
  private readonly saveStmt: Statement;
  private readonly touchStmt: Statement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly byDisplay: TwoWayStatement;
  private readonly bumpCounterStmt: Statement;
  private readonly assignedToStmt: Statement;
  private readonly readCounterStmt: Statement;
  private readonly lastOfContactInboxStmt: Statement;
  private readonly snoozedDueStmt: Statement;
  private readonly cache: StatementCache<TwoWayStatement>;

  constructor(db: Database) {
    this.cache = new StatementCache(db, Number.POSITIVE_INFINITY, (sql) => new TwoWayStatement(db, sql));
    const cols = [
      "account_id",
      "display_id",
      "uuid",
      "inbox_id",
      "contact_id",
      "contact_inbox_id",
      "created_at",
      ...MUTABLE_COLUMNS,
    ];
    this.insertStmt = db.prepare(
      `INSERT INTO conversations (${cols.join(", ")}) VALUES (${cols.map((c) => `$${c}`).join(", ")})`,
    );
    this.saveStmt = db.prepare(
      `UPDATE conversations SET ${MUTABLE_COLUMNS.map((c) => `${c} = $${c}`).join(", ")} WHERE id = $id`,
    );
    this.touchStmt = db.prepare(
      "UPDATE conversations SET last_activity_at = $last_activity_at, updated_at_ms = $updated_at_ms WHERE id = $id",
    );
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM conversations WHERE id = $id");
    this.byDisplay = new TwoWayStatement(
      db,
      "SELECT * FROM conversations WHERE account_id = $account_id AND display_id = $display_id",
    );
    this.bumpCounterStmt = db.prepare(
      `INSERT INTO account_counters (account_id, name, value) VALUES ($account_id, 'conversation_display_id', 1)
       ON CONFLICT (account_id, name) DO UPDATE SET value = account_counters.value + 1`,
    );
    this.readCounterStmt = db.prepare(
      "SELECT value FROM account_counters WHERE account_id = $account_id AND name = 'conversation_display_id'",
    );
    this.lastOfContactInboxStmt = db.prepare(
      "SELECT * FROM conversations WHERE contact_inbox_id = $id ORDER BY id DESC LIMIT 1",
    );
    this.assignedToStmt = db.prepare(
      "SELECT * FROM conversations WHERE assignee_id = $user_id AND account_id = $account_id ORDER BY id",
    );
    this.snoozedDueStmt = db.prepare(
      "SELECT * FROM conversations WHERE status = 'snoozed' AND snoozed_until IS NOT NULL AND snoozed_until <= $now ORDER BY snoozed_until LIMIT $limit",
    );
  }

  /** The next display id of the account; call inside the creating transaction. */
  nextDisplayId(accountId: number): number {
    this.bumpCounterStmt.run({ account_id: accountId });
    return (this.readCounterStmt.get({ account_id: accountId }) as { value: number }).value;
  }

  insert(c: NewConversation & { display_id: number }): number {
    return Number(this.insertStmt.run(c as unknown as Record<string, string | number | null>).lastInsertRowid);
  }

  save(row: ConversationRow): void {
    const params: Record<string, string | number | null> = { id: row.id };
    for (const c of MUTABLE_COLUMNS) params[c] = row[c];
    this.saveStmt.run(params);
  }

  /** A message moved the conversation's activity: two columns, so the other indexes stay untouched. */
  touch(row: ConversationRow): void {
    this.touchStmt.run({ id: row.id, last_activity_at: row.last_activity_at, updated_at_ms: row.updated_at_ms });
  }

  byId(id: number): ConversationRow | null {
    return (this.byIdStmt.statement.get({ id }) as ConversationRow | null) ?? null;
  }

  *readById(id: number): Reads<ConversationRow | null> {
    return (yield this.byIdStmt.get({ id })) as ConversationRow | null;
  }

  byDisplayId(accountId: number, displayId: number): ConversationRow | null {
    return readNow(this.readByDisplayId(accountId, displayId));
  }

  *readByDisplayId(accountId: number, displayId: number): Reads<ConversationRow | null> {
    return (yield this.byDisplay.get({ account_id: accountId, display_id: displayId })) as ConversationRow | null;
  }

  lastOfContactInbox(contactInboxId: number): ConversationRow | null {
    return (this.lastOfContactInboxStmt.get({ id: contactInboxId }) as ConversationRow | null) ?? null;
  }

  /** Every conversation of the account assigned to this user. */
  assignedTo(accountId: number, userId: number): ConversationRow[] {
    return this.assignedToStmt.all({ account_id: accountId, user_id: userId }) as ConversationRow[];
  }

  snoozedDue(now: number, limit: number): ConversationRow[] {
    return this.snoozedDueStmt.all({ now, limit }) as ConversationRow[];
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

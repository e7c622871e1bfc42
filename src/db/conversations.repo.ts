// A conversation's own row: insert, save, lookups by id and display id, the display-id counter,
// the snoozed that are due. The list's pages and counts: conversation-lists.repo.ts.
import type { Database } from "bun:sqlite";
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

export class ConversationsRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly saveStmt: TwoWayStatement;
  private readonly touchStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly byDisplay: TwoWayStatement;
  private readonly bumpCounterStmt: TwoWayStatement;
  private readonly assignedToStmt: TwoWayStatement;
  private readonly readCounterStmt: TwoWayStatement;
  private readonly lastOfContactInboxStmt: TwoWayStatement;
  private readonly snoozedDueStmt: TwoWayStatement;

  constructor(db: Database) {
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
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO conversations (${cols.join(", ")}) VALUES (${cols.map((c) => `$${c}`).join(", ")})`,
    );
    this.saveStmt = new TwoWayStatement(
      db,
      `UPDATE conversations SET ${MUTABLE_COLUMNS.map((c) => `${c} = $${c}`).join(", ")} WHERE id = $id`,
    );
    this.touchStmt = new TwoWayStatement(
      db,
      "UPDATE conversations SET last_activity_at = $last_activity_at, updated_at_ms = $updated_at_ms WHERE id = $id",
    );
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM conversations WHERE id = $id");
    this.byDisplay = new TwoWayStatement(
      db,
      "SELECT * FROM conversations WHERE account_id = $account_id AND display_id = $display_id",
    );
    this.bumpCounterStmt = new TwoWayStatement(
      db,
      `INSERT INTO account_counters (account_id, name, value) VALUES ($account_id, 'conversation_display_id', 1)
       ON CONFLICT (account_id, name) DO UPDATE SET value = account_counters.value + 1`,
    );
    this.readCounterStmt = new TwoWayStatement(
      db,
      "SELECT value FROM account_counters WHERE account_id = $account_id AND name = 'conversation_display_id'",
    );
    this.lastOfContactInboxStmt = new TwoWayStatement(
      db,
      "SELECT * FROM conversations WHERE contact_inbox_id = $id ORDER BY id DESC LIMIT 1",
    );
    this.assignedToStmt = new TwoWayStatement(
      db,
      "SELECT * FROM conversations WHERE assignee_id = $user_id AND account_id = $account_id ORDER BY id",
    );
    this.snoozedDueStmt = new TwoWayStatement(
      db,
      "SELECT * FROM conversations WHERE status = 'snoozed' AND snoozed_until IS NOT NULL AND snoozed_until <= $now ORDER BY snoozed_until LIMIT $limit",
    );
  }

  *nextDisplayIdSteps(accountId: number): Reads<number> {
    yield this.bumpCounterStmt.write({ account_id: accountId });
    return ((yield this.readCounterStmt.get({ account_id: accountId })) as { value: number }).value;
  }

  *insertSteps(c: NewConversation & { display_id: number }): Reads<number> {
    return yield* this.insertStmt.insertSteps(insertParams(c));
  }

  save(row: ConversationRow): void {
    this.saveStmt.statement.run(saved(row));
  }

  *saveSteps(row: ConversationRow): Reads<void> {
    yield this.saveStmt.write(saved(row));
  }

  /** A message moved the conversation's activity: two columns, so the other indexes stay untouched. */
  *touchSteps(row: ConversationRow): Reads<void> {
    yield this.touchStmt.write({
      id: row.id,
      last_activity_at: row.last_activity_at,
      updated_at_ms: row.updated_at_ms,
    });
  }

  byId(id: number): ConversationRow | null {
    return (this.byIdStmt.statement.get({ id }) as ConversationRow | null) ?? null;
  }

  *readById(id: number): Reads<ConversationRow | null> {
    return (yield this.byIdStmt.get({ id })) as ConversationRow | null;
  }

  /** Whether its reads are awaited on PostgreSQL's read pool (else they run in place). */
  get pooled(): boolean {
    return this.byDisplay.pooled;
  }

  byDisplayId(accountId: number, displayId: number): ConversationRow | null {
    return readNow(this.readByDisplayId(accountId, displayId));
  }

  *readByDisplayId(accountId: number, displayId: number): Reads<ConversationRow | null> {
    return (yield this.byDisplay.get({ account_id: accountId, display_id: displayId })) as ConversationRow | null;
  }

  *readLastOfContactInbox(contactInboxId: number): Reads<ConversationRow | null> {
    return (yield this.lastOfContactInboxStmt.get({ id: contactInboxId })) as ConversationRow | null;
  }

  /** Every conversation of the account assigned to this user. */
  *readAssignedTo(accountId: number, userId: number): Reads<ConversationRow[]> {
    return (yield this.assignedToStmt.all({ account_id: accountId, user_id: userId })) as ConversationRow[];
  }

  *readSnoozedDue(now: number, limit: number): Reads<ConversationRow[]> {
    return (yield this.snoozedDueStmt.all({ now, limit })) as ConversationRow[];
  }
}

function insertParams(c: NewConversation & { display_id: number }): Record<string, string | number | null> {
  return c as unknown as Record<string, string | number | null>;
}

function saved(row: ConversationRow): Record<string, string | number | null> {
  const params: Record<string, string | number | null> = { id: row.id };
  for (const c of MUTABLE_COLUMNS) params[c] = row[c];
  return params;
}

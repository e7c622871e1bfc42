// Messages are always read through (conversation_id, id): pages, the latest, the flood window.
// No OFFSET scans: a page is a range of ids, so a 100,000-message conversation pages as fast as a small one.
import type { Database } from "bun:sqlite";
import { Batch } from "./batch.ts";
import { type Reads, TwoWayStatement } from "./reads.ts";

export type MessageStatus = "sent" | "delivered" | "read" | "failed";
export type SenderType = "User" | "Contact" | "AgentBot";

export const MESSAGE_TYPES = ["incoming", "outgoing", "activity", "template"] as const;
export type MessageTypeName = (typeof MESSAGE_TYPES)[number];
export const INCOMING = 0;
export const OUTGOING = 1;
export const ACTIVITY = 2;
export const TEMPLATE = 3;

/** One conversation as a range of one value, for walks from its end (see the constructor). */
export const CONVERSATION = (value: string) => `conversation_id >= ${value} AND conversation_id <= ${value}`;

export interface MessageRow {
  id: number;
  account_id: number;
  inbox_id: number;
  conversation_id: number;
  message_type: number;
  content: string | null;
  content_type: string;
  content_attributes: string;
  additional_attributes: string;
  external_source_ids: string;
  private: number;
  status: MessageStatus;
  source_id: string | null;
  echo_id: string | null;
  sender_type: SenderType | null;
  sender_id: number | null;
  created_at: number;
  updated_at: number;
  /** JSON copy of the message's attachment records (src/db/attachments.repo.ts); null when it has none. */
  attachments?: string | null;
}

/**
 * Unread counts stop at this number, wherever they appear (list, conversation, push data, a
 * message's `conversation`): Chatwoot counts `unread_incoming_messages`, which is `.last(10)`.
 */
export const UNREAD_LIMIT = 10;

export type NewMessage = Omit<MessageRow, "id" | "external_source_ids" | "status" | "attachments"> & {
  status?: MessageStatus;
};

export class MessagesRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly inAccountStmt: TwoWayStatement;
  private readonly saveStmt: TwoWayStatement;
  private readonly latestStmt: TwoWayStatement;
  private readonly beforeStmt: TwoWayStatement;
  private readonly afterStmt: TwoWayStatement;
  private readonly rangeStmt: TwoWayStatement;
  private readonly lastAny: Batch<MessageRow>;
  private readonly lastNonActivity: Batch<MessageRow>;
  private readonly lastChat: Batch<MessageRow>;
  private readonly recentStmt: TwoWayStatement;
  private readonly incomingUnreadStmt: TwoWayStatement;
  private readonly nthRecentStmt: TwoWayStatement;
  private readonly unread: Batch<{ id: number; n: number }>;
  private readonly humanRepliesStmt: TwoWayStatement;
  private readonly byIdsBatch: Batch<MessageRow>;
  private readonly lastIncomingStmt: TwoWayStatement;
  private readonly bySourceStmt: TwoWayStatement;

  constructor(db: Database) {
    // A quoted reply named by its channel id (in_reply_to_external_id): the conversation's own
    // messages only, walked on its index (no index has source_id; this is the rare path).
    this.bySourceStmt = new TwoWayStatement(
      db,
      "SELECT * FROM messages INDEXED BY messages_conversation WHERE conversation_id = $c AND source_id = $source_id ORDER BY id LIMIT 1",
    );
    // Read receipts for the contact's messages since the agents last looked: a seek on the
    // conversation's index by time, whatever the statistics say.
    this.incomingUnreadStmt = new TwoWayStatement(
      db,
      `SELECT * FROM messages INDEXED BY messages_conversation_time WHERE conversation_id = $c AND created_at >= $since AND created_at <= $until
         AND message_type = 0 AND status IN ('sent', 'delivered') ORDER BY id`,
    );
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, content_type, content_attributes,
         additional_attributes, private, status, source_id, echo_id, sender_type, sender_id, created_at, updated_at)
       VALUES ($account_id, $inbox_id, $conversation_id, $message_type, $content, $content_type, $content_attributes,
         $additional_attributes, $private, $status, $source_id, $echo_id, $sender_type, $sender_id, $created_at, $updated_at)`,
    );
    this.byIdStmt = new TwoWayStatement(
      db,
      "SELECT * FROM messages WHERE conversation_id = $conversation_id AND id = $id",
    );
    this.inAccountStmt = new TwoWayStatement(db, "SELECT * FROM messages WHERE account_id = $account_id AND id = $id");
    this.byIdsBatch = new Batch<MessageRow>(db, "SELECT * FROM messages WHERE id IN {ids}", "id");
    this.saveStmt = new TwoWayStatement(
      db,
      `UPDATE messages SET content = $content, content_type = $content_type, content_attributes = $content_attributes,
         status = $status, updated_at = $updated_at WHERE id = $id`,
    );
    // A conversation's newest messages are a walk down messages_conversation (conversation_id, id)
    // from the conversation's end, the conversation named as a one-value range (CONVERSATION) and
    // the order by both columns. On PostgreSQL, where INDEXED BY is dropped, `conversation_id = $c
    // ORDER BY id DESC` let the planner walk the primary key backwards and filter by conversation,
    // guessing from the conversation's share of all messages that one would come soon; for a thread
    // whose newest messages were old it read every newer message of every other conversation first
    // (61,329 rows, 13 ms). With an equality the planner drops conversation_id from the order, and
    // the primary key fits again. Pages bounded by an id keep the equality: a range would make that
    // bound a filter instead of where the walk starts (a before-page of a long thread skipping its
    // newer half). On PostgreSQL such a page may still walk the primary key from its bound and skip
    // other conversations' messages until it has its rows: the cost left there.
    this.latestStmt = new TwoWayStatement(
      db,
      `SELECT * FROM messages INDEXED BY messages_conversation WHERE ${CONVERSATION("$c")} ORDER BY conversation_id DESC, id DESC LIMIT $limit`,
    );
    // Callers reverse the newest-first pages to ascending.
    this.beforeStmt = new TwoWayStatement(
      db,
      "SELECT * FROM messages WHERE conversation_id = $c AND id < $before ORDER BY id DESC LIMIT $limit",
    );
    this.afterStmt = new TwoWayStatement(
      db,
      "SELECT * FROM messages WHERE conversation_id = $c AND id > $after ORDER BY id ASC LIMIT $limit",
    );
    this.rangeStmt = new TwoWayStatement(
      db,
      "SELECT * FROM messages WHERE conversation_id = $c AND id >= $after AND id < $before ORDER BY id ASC LIMIT $limit",
    );
    // The newest message of one conversation: a walk down messages_conversation from its end.
    const lastOf = (cond: string) =>
      new Batch<MessageRow>(
        db,
        `SELECT * FROM messages INDEXED BY messages_conversation WHERE ${CONVERSATION("{ids}")}${cond} ORDER BY conversation_id DESC, id DESC LIMIT 1`,
        "conversation_id",
      );
    this.lastAny = lastOf("");
    this.lastNonActivity = lastOf(" AND message_type != 2");
    this.lastChat = lastOf(" AND message_type != 2 AND private = 0");
    // A plain count: the window holds at most about FLOOD_LIMIT entries, and a LIMIT subquery measured 10x slower.
    this.recentStmt = new TwoWayStatement(
      db,
      "SELECT count(*) AS n FROM messages WHERE conversation_id = $c AND created_at > $since",
    );
    this.nthRecentStmt = new TwoWayStatement(
      db,
      "SELECT created_at FROM messages WHERE conversation_id = $c AND created_at > $since ORDER BY created_at DESC LIMIT 1 OFFSET $n",
    );
    // Counted up to UNREAD_LIMIT: a conversation nobody opened may hold 100,000 incoming messages,
    // and every view of it (each message event carries one) would otherwise count them all.
    this.unread = new Batch<{ id: number; n: number }>(
      db,
      `SELECT c.id, (SELECT count(*) FROM (SELECT 1 FROM messages m INDEXED BY messages_conversation_time WHERE m.conversation_id = c.id
                      AND m.created_at > coalesce(c.agent_last_seen_at, -1) AND m.message_type = 0 LIMIT ${UNREAD_LIMIT}) recent) AS n
       FROM conversations c WHERE c.id IN {ids}`,
      "id",
    );
    this.lastIncomingStmt = new TwoWayStatement(
      db,
      "SELECT max(created_at) AS at FROM messages WHERE conversation_id = $c AND message_type = 0",
    );
    this.humanRepliesStmt = new TwoWayStatement(
      db,
      `SELECT count(*) AS n FROM messages WHERE conversation_id = $c AND message_type = 1 AND private = 0 AND sender_type = 'User'
         AND json_extract(content_attributes, '$.automation_rule_id') IS NULL
         AND json_extract(additional_attributes, '$.campaign_id') IS NULL`,
    );
  }

  /** Inserts and returns the row as stored (built here: no read-back). */
  *insertSteps(m: NewMessage): Reads<MessageRow> {
    const params = { status: "sent" as MessageStatus, ...m };
    const id = yield* this.insertStmt.insertSteps(params as unknown as Record<string, string | number | null>);
    return { id, external_source_ids: "{}", ...params };
  }

  byId(conversationId: number, id: number): MessageRow | null {
    return (this.byIdStmt.statement.get({ conversation_id: conversationId, id }) as MessageRow | null) ?? null;
  }

  *readById(conversationId: number, id: number): Reads<MessageRow | null> {
    return (yield this.byIdStmt.get({ conversation_id: conversationId, id })) as MessageRow | null;
  }

  /** The conversation's first message with this channel id (source_id), if any. */
  *readBySource(conversationId: number, sourceId: string): Reads<MessageRow | null> {
    return (yield this.bySourceStmt.get({ c: conversationId, source_id: sourceId })) as MessageRow | null;
  }

  inAccount(accountId: number, id: number): MessageRow | null {
    return (this.inAccountStmt.statement.get({ account_id: accountId, id }) as MessageRow | null) ?? null;
  }

  *readInAccount(accountId: number, id: number): Reads<MessageRow | null> {
    return (yield this.inAccountStmt.get({ account_id: accountId, id })) as MessageRow | null;
  }

  byIds(ids: readonly number[]): Map<number, MessageRow> {
    return this.byIdsBatch.map(ids);
  }

  readByIds(ids: readonly number[]): Reads<Map<number, MessageRow>> {
    return this.byIdsBatch.readMap(ids);
  }

  *saveSteps(m: MessageRow): Reads<void> {
    yield this.saveStmt.write(savedColumns(m));
  }

  /** The page selections of the account message list (docs/compatibility.md #4), ascending by id. */
  latest(conversationId: number, limit: number): MessageRow[] {
    return (this.latestStmt.statement.all({ c: conversationId, limit }) as MessageRow[]).reverse();
  }

  *readLatest(conversationId: number, limit: number): Reads<MessageRow[]> {
    return ((yield this.latestStmt.all({ c: conversationId, limit })) as MessageRow[]).reverse();
  }

  *readBefore(conversationId: number, before: number, limit: number): Reads<MessageRow[]> {
    return ((yield this.beforeStmt.all({ c: conversationId, before, limit })) as MessageRow[]).reverse();
  }

  after(conversationId: number, after: number, limit: number): MessageRow[] {
    return this.afterStmt.statement.all({ c: conversationId, after, limit }) as MessageRow[];
  }

  *readAfter(conversationId: number, after: number, limit: number): Reads<MessageRow[]> {
    return (yield this.afterStmt.all({ c: conversationId, after, limit })) as MessageRow[];
  }

  *readRange(conversationId: number, after: number, before: number, limit: number): Reads<MessageRow[]> {
    return (yield this.rangeStmt.all({ c: conversationId, after, before, limit })) as MessageRow[];
  }

  /** The newest message of each conversation: of any kind, non-activity, or public chat (incoming/outgoing/template, not private). */
  lastOf(conversationIds: readonly number[], kind: "any" | "non_activity" | "chat"): Map<number, MessageRow> {
    return this.lastBatch(kind).map(conversationIds);
  }

  readLastOf(
    conversationIds: readonly number[],
    kind: "any" | "non_activity" | "chat",
  ): Reads<Map<number, MessageRow>> {
    return this.lastBatch(kind).readMap(conversationIds);
  }

  private lastBatch(kind: "any" | "non_activity" | "chat"): Batch<MessageRow> {
    return kind === "any" ? this.lastAny : kind === "non_activity" ? this.lastNonActivity : this.lastChat;
  }

  /** The contact's messages created in [since, until] that are not read yet (sent or delivered), oldest first. */
  *readIncomingUnread(conversationId: number, since: number, until: number): Reads<MessageRow[]> {
    return (yield this.incomingUnreadStmt.all({ c: conversationId, since, until })) as MessageRow[];
  }

  /** Messages created after `since` (index entries only). */
  *readCountSince(conversationId: number, since: number): Reads<number> {
    return ((yield this.recentStmt.get({ c: conversationId, since })) as { n: number }).n;
  }

  /** created_at of the n-th newest message after `since` (0 = newest), or null when there are fewer. */
  *readNthSince(conversationId: number, since: number, n: number): Reads<number | null> {
    return (
      ((yield this.nthRecentStmt.get({ c: conversationId, since, n })) as { created_at: number } | null)?.created_at ??
      null
    );
  }

  /** Incoming messages created after the agent last looked (all of them when never), per conversation, up to UNREAD_LIMIT. */
  unreadCounts(conversationIds: readonly number[]): Map<number, number> {
    return counted(this.unread.map(conversationIds));
  }

  *readUnreadCounts(conversationIds: readonly number[]): Reads<Map<number, number>> {
    return counted(yield* this.unread.readMap(conversationIds));
  }

  *readLastIncomingAt(conversationId: number): Reads<number | null> {
    return ((yield this.lastIncomingStmt.get({ c: conversationId })) as { at: number | null }).at;
  }

  /** Public replies written by people (not automation, not campaigns): Chatwoot's "human responses". */
  *readHumanReplyCount(conversationId: number): Reads<number> {
    return ((yield this.humanRepliesStmt.get({ c: conversationId })) as { n: number }).n;
  }
}

function counted(rows: Map<number, { id: number; n: number }>): Map<number, number> {
  return new Map([...rows].map(([id, r]) => [id, r.n]));
}

/** What a message's save writes: the columns a change may touch. */
function savedColumns(m: MessageRow) {
  const { id, content, content_type, content_attributes, status, updated_at } = m;
  return { id, content, content_type, content_attributes, status, updated_at };
}

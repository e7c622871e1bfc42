// Chatwoot's search of conversations and messages (GET search/…): a case-insensitive substring of a
// contact's name, email, phone or identifier, or of a conversation's display id; of a message's text.
// A substring has no index, so each reads a window of the newest rows and tests them. Chatwoot reads
// every conversation and three months of messages; on a million conversations a rare term held the
// (single-threaded) server for two seconds, so the windows are bounded: the newest
// CONVERSATION_WINDOW conversations the caller sees, and the newest MESSAGE_WINDOW messages of each
// kind from the last three months. Tens of milliseconds at most: awaited (async-reads.ts), so on
// PostgreSQL the process serves other requests meanwhile.
import type { Database } from "bun:sqlite";
import { type ReadStatement, readStatementCache } from "./async-reads.ts";
import type { StatementCache } from "./batch.ts";
import { containsPattern, marks } from "./filter-sql.ts";
import type { ConversationRow } from "./conversations.repo.ts";
import type { MessageRow } from "./messages.repo.ts";

export interface SearchScope {
  accountId: number;
  /** null: every inbox of the account. */
  inboxIds: readonly number[] | null;
}

export interface SearchPage {
  limit: number;
  offset: number;
}

/** How many of the newest conversations a search reads. */
export const CONVERSATION_WINDOW = 20_000;
/** How many of the newest messages of each kind (incoming, outgoing, activity, template) it reads. */
export const MESSAGE_WINDOW = 20_000;
const KINDS = [0, 1, 2, 3];

export class SearchRepo {
  /** One statement per number of inboxes an agent works. */
  private readonly statements: StatementCache<ReadStatement>;

  constructor(
    db: Database,
    private readonly windows = { conversations: CONVERSATION_WINDOW, messages: MESSAGE_WINDOW },
  ) {
    this.statements = readStatementCache(db, 32);
  }

  /** Newest first (display ids grow with creation), as Chatwoot orders by created_at. */
  conversations(scope: SearchScope, term: string, page: SearchPage): Promise<ConversationRow[]> {
    const p = containsPattern(term);
    const sql = `SELECT v.* FROM (
        SELECT * FROM conversations INDEXED BY conversations_account_display
        WHERE account_id = ? ${inboxes(scope, "conversations")} ORDER BY display_id DESC LIMIT ${this.windows.conversations}
      ) v JOIN contacts c ON c.id = v.contact_id
      WHERE CAST(v.display_id AS TEXT) LIKE ? ESCAPE '\\' OR c.name LIKE ? ESCAPE '\\' OR c.email LIKE ? ESCAPE '\\'
        OR c.phone_number LIKE ? ESCAPE '\\' OR c.identifier LIKE ? ESCAPE '\\'
      ORDER BY v.display_id DESC LIMIT ? OFFSET ?`;
    return this.statements
      .get(sql)
      .all<ConversationRow>(scope.accountId, ...(scope.inboxIds ?? []), p, p, p, p, p, page.limit, page.offset);
  }

  /** Messages since `since` (unix seconds) whose text holds the term, newest first. */
  messages(scope: SearchScope, term: string, since: number, page: SearchPage): Promise<MessageRow[]> {
    // One window per kind: the index is (account_id, message_type, created_at), so each is read in
    // time order and stops at its bound, where one window over all kinds would sort them all first.
    const windows = KINDS.map(
      (_, i) => `SELECT * FROM (SELECT * FROM messages INDEXED BY messages_account_type_time
        WHERE account_id = ? AND message_type = ? AND created_at >= ? ${inboxes(scope, "messages")}
        ORDER BY created_at DESC LIMIT ${this.windows.messages}) w${i}`,
    );
    const sql = `SELECT m.* FROM (${windows.join(" UNION ALL ")}) m WHERE m.content LIKE ? ESCAPE '\\'
      ORDER BY m.created_at DESC, m.id DESC LIMIT ? OFFSET ?`;
    return this.statements
      .get(sql)
      .all<MessageRow>(
        ...KINDS.flatMap((kind) => [scope.accountId, kind, since, ...(scope.inboxIds ?? [])]),
        containsPattern(term),
        page.limit,
        page.offset,
      );
  }
}

function inboxes(scope: SearchScope, alias: string): string {
  if (scope.inboxIds === null) return "";
  return `AND ${alias}.inbox_id IN (${marks(scope.inboxIds.length) || "NULL"})`;
}

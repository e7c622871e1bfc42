// Runs Chatwoot-style filters (src/db/filter-sql.ts) over contacts and conversations: one page and
// the counts, within one account (and, for agents, their inboxes).
import type { Database } from "bun:sqlite";
import type { ContactRow } from "./contacts.repo.ts";
import type { ConversationCounts, ConversationRow } from "./conversations.repo.ts";
import { CONTACT_FILTER_TABLE, CONVERSATION_FILTER_TABLE, filterWhere, type FilterCondition, type FilterValue } from "./filter-sql.ts";

export interface FilterPage {
  limit: number;
  offset: number;
}

const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");

export class RecordFiltersRepo {
  constructor(private readonly db: Database) {}

  /** Contacts of the account matching the conditions, oldest first (Chatwoot's order), and their count. */
  contacts(accountId: number, conditions: readonly FilterCondition[], page: FilterPage): { rows: ContactRow[]; count: number } {
    const where = filterWhere(CONTACT_FILTER_TABLE, accountId, conditions);
    const sql = `FROM contacts c WHERE c.account_id = ? AND ${where.sql}`;
    const params: FilterValue[] = [accountId, ...where.params];
    const rows = this.all<ContactRow>(`SELECT c.* ${sql} ORDER BY c.id LIMIT ? OFFSET ?`, [...params, page.limit, page.offset]);
    const count = this.all<{ n: number }>(`SELECT COUNT(*) AS n ${sql}`, params)[0]!.n;
    return { rows, count };
  }

  /**
   * Conversations matching the conditions, newest activity first, with the list's counts over the
   * whole match. `inboxIds` null = every inbox of the account.
   */
  conversations(
    accountId: number,
    inboxIds: readonly number[] | null,
    userId: number,
    conditions: readonly FilterCondition[],
    page: FilterPage,
  ): { rows: ConversationRow[]; counts: ConversationCounts } {
    const where = filterWhere(CONVERSATION_FILTER_TABLE, accountId, conditions);
    const scope = inboxIds === null ? "" : `AND v.inbox_id IN (${marks(inboxIds.length) || "NULL"}) `;
    const sql = `FROM conversations v WHERE v.account_id = ? ${scope}AND ${where.sql}`;
    const params: FilterValue[] = [accountId, ...(inboxIds ?? []), ...where.params];
    const rows = this.all<ConversationRow>(`SELECT v.* ${sql} ORDER BY v.last_activity_at DESC, v.id DESC LIMIT ? OFFSET ?`, [...params, page.limit, page.offset]);
    const counts = this.all<ConversationCounts>(
      `SELECT COALESCE(SUM(v.assignee_id = ?), 0) AS mine_count, COALESCE(SUM(v.assignee_id IS NOT NULL), 0) AS assigned_count,
         COALESCE(SUM(v.assignee_id IS NULL), 0) AS unassigned_count, COUNT(*) AS all_count ${sql}`,
      [userId, ...params],
    )[0]!;
    return { rows, counts };
  }

  private all<T>(sql: string, params: FilterValue[]): T[] {
    // Filters vary in shape: prepare per call instead of filling the statement cache with one-offs.
    const stmt = this.db.prepare(sql);
    try {
      return stmt.all(...params) as T[];
    } finally {
      stmt.finalize();
    }
  }
}

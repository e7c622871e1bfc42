// Runs Chatwoot-style filters (src/db/filter-sql.ts) over contacts and conversations: one page and
// the counts, within one account (and, for agents, their inboxes). Awaited reads (async-reads.ts):
// on PostgreSQL a filter runs on the read pool while the process serves other requests.
import type { Database } from "bun:sqlite";
import { type ReadStatement, readStatementCache } from "./async-reads.ts";
import type { StatementCache } from "./batch.ts";
import type { ContactRow } from "./contacts.repo.ts";
import type { ConversationCounts } from "./conversation-lists.repo.ts";
import type { ConversationRow } from "./conversations.repo.ts";
import {
  CONTACT_FILTER_TABLE,
  CONVERSATION_FILTER_TABLE,
  filterWhere,
  marks,
  type FilterCondition,
  type FilterDialect,
  type FilterValue,
  type LabelsFrom,
} from "./filter-sql.ts";
import { isPostgres } from "./postgres/database.ts";

export interface FilterPage {
  limit: number;
  offset: number;
}

/** Above this many matches a page is found faster by walking the ordered index than by sorting the matches. */
const DENSE_MATCHES = 2_000;

/** Filter shapes kept prepared: an app polls a few saved filters; any client may send new shapes. */
const KEPT_SHAPES = 64;

export class RecordFiltersRepo {
  private readonly statements: StatementCache<ReadStatement>;

  private readonly dialect: FilterDialect;

  constructor(db: Database) {
    this.statements = readStatementCache(db, KEPT_SHAPES);
    this.dialect = isPostgres(db) ? "postgres" : "sqlite";
  }

  /** Contacts of the account matching the conditions, oldest first (Chatwoot's order), and their count. */
  async contacts(
    accountId: number,
    conditions: readonly FilterCondition[],
    page: FilterPage,
    knownCount?: number,
  ): Promise<{ rows: ContactRow[]; count: number }> {
    const where = filterWhere(CONTACT_FILTER_TABLE, accountId, conditions, "labels", this.dialect);
    const sql = `FROM contacts c WHERE c.account_id = ? AND ${where.sql}`;
    const params: FilterValue[] = [accountId, ...where.params];
    // The page and its count at once (on PostgreSQL, two connections of the read pool).
    const [rows, count] = await Promise.all([
      this.all<ContactRow>(`SELECT c.* ${sql} ORDER BY c.id LIMIT ? OFFSET ?`, [...params, page.limit, page.offset]),
      knownCount ?? this.all<{ n: number }>(`SELECT COUNT(*) AS n ${sql}`, params).then((r) => r[0]!.n),
    ]);
    return { rows, count };
  }

  /**
   * Conversations matching the conditions, newest activity first, with the list's counts over the
   * whole match. `inboxIds` null = every inbox of the account.
   */
  async conversations(
    accountId: number,
    inboxIds: readonly number[] | null,
    userId: number,
    conditions: readonly FilterCondition[],
    page: FilterPage,
    knownCounts?: ConversationCounts,
  ): Promise<{ rows: ConversationRow[]; counts: ConversationCounts }> {
    const scope = inboxIds === null ? "" : `AND v.inbox_id IN (${marks(inboxIds.length) || "NULL"}) `;
    const query = (labelsFrom: LabelsFrom) => {
      const where = filterWhere(CONVERSATION_FILTER_TABLE, accountId, conditions, labelsFrom, this.dialect);
      return {
        sql: `FROM conversations v WHERE v.account_id = ? ${scope}AND ${where.sql}`,
        params: [accountId, ...(inboxIds ?? []), ...where.params] as FilterValue[],
      };
    };
    const counted = query("labels");
    const fromLabels = labelCountQuery(accountId, inboxIds, conditions);
    const counting =
      knownCounts ??
      this.all<ConversationCounts>(
        `SELECT COALESCE(SUM(v.assignee_id = ?), 0) AS mine_count, COALESCE(SUM(v.assignee_id IS NOT NULL), 0) AS assigned_count,
         COALESCE(SUM(v.assignee_id IS NULL), 0) AS unassigned_count, COUNT(*) AS all_count ${(fromLabels ?? counted).sql}`,
        [userId, ...(fromLabels ?? counted).params],
      ).then((r) => r[0]!);
    // Few matches: fetch them from the label's rows and sort those. Many: walk the activity index
    // and test each row, which reaches a page of matches after a few rows instead of sorting them all.
    const inOrder = labelPageQuery(accountId, inboxIds, conditions);
    if (inOrder) {
      const [rows, counts] = await Promise.all([
        this.all<ConversationRow>(inOrder.sql, [...inOrder.params, page.limit, page.offset]),
        counting,
      ]);
      return { rows, counts };
    }
    const counts = await counting;
    const paged = counts.all_count <= DENSE_MATCHES ? counted : query("records");
    const rows = await this.all<ConversationRow>(
      `SELECT v.* ${paged.sql} ORDER BY v.last_activity_at DESC, v.id DESC LIMIT ? OFFSET ?`,
      [...paged.params, page.limit, page.offset],
    );
    return { rows, counts };
  }

  private all<T>(sql: string, params: FilterValue[]): Promise<T[]> {
    // The same shape (attributes, operators, number of values) is the same SQL: prepared once and kept.
    return this.statements.get(sql).all<T>(...params);
  }
}

/**
 * The mobile app's usual filter — one label, ANDed with statuses and inboxes — as conditions on
 * the label's rows alone (migrations 019 and 020 keep each conversation's status, assignee, inbox
 * and activity time on its label rows), with `alias` for the label table. Null for any other shape.
 */
function labelShape(
  alias: string,
  accountId: number,
  inboxIds: readonly number[] | null,
  conditions: readonly FilterCondition[],
) {
  if (conditions.slice(0, -1).some((c) => c.join !== "AND")) return null;
  const labels = conditions.filter((c) => c.attribute === "labels" && !c.custom);
  const label = labels[0];
  if (labels.length !== 1 || !label || label.op !== "in" || label.values.length !== 1) return null;
  const params: FilterValue[] = [accountId, label.values[0]!];
  let where = `${alias}.account_id = ? AND ${alias}.title = ?`;
  let statuses = 0;
  for (const c of conditions) {
    if (c === label) continue;
    if (c.custom || c.op !== "in" || (c.attribute !== "status" && c.attribute !== "inbox_id")) return null;
    if (c.attribute === "status") statuses += c.values.length;
    where += ` AND ${alias}.${c.attribute} IN (${marks(c.values.length)})`;
    params.push(...c.values);
  }
  if (inboxIds !== null) {
    where += ` AND ${alias}.inbox_id IN (${marks(inboxIds.length) || "NULL"})`;
    params.push(...inboxIds);
  }
  return { where, params, singleStatus: statuses === 1 };
}

/** The counts of that shape from one covering index range; `v` stands for the label rows, as the counting SELECT expects. */
function labelCountQuery(
  accountId: number,
  inboxIds: readonly number[] | null,
  conditions: readonly FilterCondition[],
) {
  const shape = labelShape("v", accountId, inboxIds, conditions);
  return (
    shape && {
      sql: `FROM conversation_labels v INDEXED BY conversation_labels_counts WHERE ${shape.where}`,
      params: shape.params,
    }
  );
}

/** Its page when it has exactly one status: the newest 25 are the first 25 entries of the label's index. */
function labelPageQuery(accountId: number, inboxIds: readonly number[] | null, conditions: readonly FilterCondition[]) {
  const shape = labelShape("l", accountId, inboxIds, conditions);
  if (!shape?.singleStatus) return null;
  return {
    sql: `SELECT v.* FROM conversation_labels l INDEXED BY conversation_labels_list CROSS JOIN conversations v ON v.id = l.conversation_id
          WHERE ${shape.where} ORDER BY l.last_activity_at DESC, l.conversation_id DESC LIMIT ? OFFSET ?`,
    params: shape.params,
  };
}

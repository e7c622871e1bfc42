// CSAT survey answers (one row per survey message) and the "already sent?" check on resolve.
import type { Database, Statement } from "bun:sqlite";
import { StatementCache } from "./batch.ts";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface CsatResponseRow {
  id: number;
  account_id: number;
  inbox_id: number;
  conversation_id: number;
  message_id: number;
  contact_id: number;
  assigned_agent_id: number | null;
  rating: number;
  feedback_message: string | null;
  created_at: number;
  updated_at: number;
}

/** A row with its conversation's display id (the wire's conversation_id). */
export type CsatResponseListRow = CsatResponseRow & { display_id: number };

export type NewCsatResponse = Omit<CsatResponseRow, "id" | "created_at" | "updated_at">;

export interface CsatFilter {
  accountId: number;
  /** An agent's inboxes; null = every inbox of the account. */
  inboxIds: number[] | null;
  since: number | null;
  until: number | null;
}

export class CsatRepo {
  private readonly sentStmt: TwoWayStatement;
  private readonly upsertStmt: TwoWayStatement;
  private readonly byMessageStmt: Statement;
  /** The list's statements by their shape (a filter of three optional parts: at most eight). */
  private readonly pages: StatementCache<TwoWayStatement>;

  constructor(db: Database) {
    this.pages = new StatementCache(db, 8, (sql) => new TwoWayStatement(db, sql));
    // Served by the partial index messages_input_csat.
    this.sentStmt = new TwoWayStatement(
      db,
      "SELECT 1 AS ok FROM messages WHERE conversation_id = $c AND content_type = 'input_csat' LIMIT 1",
    );
    this.upsertStmt = new TwoWayStatement(
      db,
      `INSERT INTO csat_survey_responses (account_id, inbox_id, conversation_id, message_id, contact_id, assigned_agent_id,
         rating, feedback_message, created_at, updated_at)
       VALUES ($account_id, $inbox_id, $conversation_id, $message_id, $contact_id, $assigned_agent_id, $rating, $feedback_message, $now, $now)
       ON CONFLICT (message_id) DO UPDATE SET contact_id = excluded.contact_id, assigned_agent_id = excluded.assigned_agent_id,
         rating = excluded.rating, feedback_message = excluded.feedback_message, updated_at = excluded.updated_at`,
    );
    this.byMessageStmt = db.prepare("SELECT * FROM csat_survey_responses WHERE message_id = $id");
  }

  *readSurveySent(conversationId: number): Reads<boolean> {
    return (yield this.sentStmt.get({ c: conversationId })) !== null;
  }

  /** Inserts the answer, or changes it (the first answer's created_at stays). */
  *upsertSteps(r: NewCsatResponse, now: number): Reads<void> {
    yield this.upsertStmt.write({ ...r, now } as unknown as Record<string, string | number | null>);
  }

  byMessage(messageId: number): CsatResponseRow | null {
    return (this.byMessageStmt.get({ id: messageId }) as CsatResponseRow | null) ?? null;
  }

  /** A page, newest first; `since` inclusive, `until` exclusive. */
  *readPage(f: CsatFilter, limit: number, offset: number): Reads<CsatResponseListRow[]> {
    const parts = ["r.account_id = $account_id"];
    const params: Record<string, string | number> = { account_id: f.accountId, limit, offset };
    if (f.inboxIds) {
      parts.push("r.inbox_id IN (SELECT value FROM json_each($inbox_ids))");
      params.inbox_ids = JSON.stringify(f.inboxIds);
    }
    if (f.since !== null) {
      parts.push("r.created_at >= $since");
      params.since = f.since;
    }
    if (f.until !== null) {
      parts.push("r.created_at < $until");
      params.until = f.until;
    }
    const sql = `SELECT r.*, c.display_id FROM csat_survey_responses r JOIN conversations c ON c.id = r.conversation_id
      WHERE ${parts.join(" AND ")} ORDER BY r.created_at DESC, r.id DESC LIMIT $limit OFFSET $offset`;
    return (yield this.pages.get(sql).all(params)) as CsatResponseListRow[];
  }
}

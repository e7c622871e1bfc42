// Replies an email inbox must send (migration 021): written with the message, claimed by the SMTP
// sender (src/mail/smtp-sender.ts), finished by a recorded result.
import type { Database, Statement } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface EmailOutboxRow {
  message_id: number;
  account_id: number;
  inbox_id: number;
  conversation_id: number;
  header_id: string;
  state: "pending" | "sent" | "failed";
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

export class EmailOutboxRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly dueStmt: TwoWayStatement;
  private readonly byMessageStmt: Statement;
  private readonly attemptStmt: TwoWayStatement;
  private readonly sentStmt: TwoWayStatement;
  private readonly retryStmt: TwoWayStatement;
  private readonly failedStmt: TwoWayStatement;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT OR IGNORE INTO email_outbox (message_id, account_id, inbox_id, conversation_id, header_id, state, next_attempt_at, created_at)
       VALUES ($message_id, $account_id, $inbox_id, $conversation_id, $header_id, 'pending', $now, $now)`,
    );
    this.dueStmt = new TwoWayStatement(
      db,
      "SELECT * FROM email_outbox WHERE state = 'pending' AND next_attempt_at <= $now ORDER BY next_attempt_at, message_id LIMIT $limit",
    );
    this.byMessageStmt = db.prepare("SELECT * FROM email_outbox WHERE message_id = $message_id");
    this.attemptStmt = new TwoWayStatement(
      db,
      `UPDATE email_outbox SET attempts = attempts + 1, next_attempt_at = $retry_at
       WHERE message_id = $message_id AND state = 'pending' AND next_attempt_at <= $now`,
    );
    this.sentStmt = new TwoWayStatement(
      db,
      "UPDATE email_outbox SET state = 'sent', sent_at = $now, last_error = NULL WHERE message_id = $message_id",
    );
    this.retryStmt = new TwoWayStatement(
      db,
      "UPDATE email_outbox SET next_attempt_at = $retry_at, last_error = $error WHERE message_id = $message_id AND state = 'pending'",
    );
    this.failedStmt = new TwoWayStatement(
      db,
      "UPDATE email_outbox SET state = 'failed', last_error = $error WHERE message_id = $message_id",
    );
  }

  *insertSteps(
    row: Omit<EmailOutboxRow, "state" | "attempts" | "next_attempt_at" | "last_error" | "created_at" | "sent_at">,
    now: number,
  ): Reads<void> {
    yield this.insertStmt.write({ ...row, now });
  }

  *readDue(now: number, limit: number): Reads<EmailOutboxRow[]> {
    return (yield this.dueStmt.all({ now, limit })) as EmailOutboxRow[];
  }

  byMessage(messageId: number): EmailOutboxRow | null {
    return (this.byMessageStmt.get({ message_id: messageId }) as EmailOutboxRow | null) ?? null;
  }

  /**
   * Records an attempt before it is made, and when to try again if it never reports back (a crash
   * mid-send): the row stays pending, so it is sent again then, with the same Message-ID. False when
   * it is no longer due: sent, failed or tried since it was listed (a list read on PostgreSQL's read
   * pool can be older than an attempt that ended while it was read).
   */
  *recordAttemptSteps(messageId: number, now: number, retryAt: number): Reads<boolean> {
    return (yield* this.attemptStmt.changesSteps({ message_id: messageId, now, retry_at: retryAt })) > 0;
  }

  *sentSteps(messageId: number, now: number): Reads<void> {
    yield this.sentStmt.write({ message_id: messageId, now });
  }

  *retryAtSteps(messageId: number, retryAt: number, error: string): Reads<void> {
    yield this.retryStmt.write({ message_id: messageId, retry_at: retryAt, error: error.slice(0, 1000) });
  }

  *failedSteps(messageId: number, error: string): Reads<void> {
    yield this.failedStmt.write({ message_id: messageId, error: error.slice(0, 1000) });
  }
}

// An email inbox's mail settings (passwords arrive here already sealed), its IMAP checkpoint and
// its sync status, and the Message-IDs it has seen (migration 021).
import type { Database, Statement } from "bun:sqlite";
import { type Reads, readNow, TwoWayStatement } from "./reads.ts";

export interface EmailChannelRow {
  inbox_id: number;
  account_id: number;
  imap_enabled: number;
  imap_address: string | null;
  imap_port: number;
  imap_login: string | null;
  /** Sealed (src/lib/secret-box.ts); never sent to a client. */
  imap_password: string | null;
  imap_enable_ssl: number;
  imap_folder: string;
  smtp_enabled: number;
  smtp_address: string | null;
  smtp_port: number;
  smtp_login: string | null;
  /** Sealed, as imap_password. */
  smtp_password: string | null;
  smtp_domain: string | null;
  smtp_enable_ssl_tls: number;
  smtp_enable_starttls_auto: number;
  smtp_openssl_verify_mode: "none" | "peer";
  smtp_authentication: "login" | "plain";
  /** Replies carry a reply+<conversation uuid> Reply-To (Parley's; the mailbox must take plus addresses). */
  reply_plus_addressing: number;
  uid_validity: number | null;
  last_uid: number;
  last_synced_at: number | null;
  last_error: string | null;
  last_error_at: number | null;
}

/** The settings an administrator writes (everything but the ids and the sync state). */
export type EmailSettings = Omit<
  EmailChannelRow,
  "inbox_id" | "account_id" | "uid_validity" | "last_uid" | "last_synced_at" | "last_error" | "last_error_at"
>;

export const EMAIL_SETTING_FIELDS: (keyof EmailSettings)[] = [
  "imap_enabled",
  "imap_address",
  "imap_port",
  "imap_login",
  "imap_password",
  "imap_enable_ssl",
  "imap_folder",
  "smtp_enabled",
  "smtp_address",
  "smtp_port",
  "smtp_login",
  "smtp_password",
  "smtp_domain",
  "smtp_enable_ssl_tls",
  "smtp_enable_starttls_auto",
  "smtp_openssl_verify_mode",
  "smtp_authentication",
  "reply_plus_addressing",
];

export interface MessageIdRow {
  header_id: string;
  conversation_id: number | null;
  message_id: number | null;
  direction: "in" | "out";
}

export class EmailChannelsRepo {
  private readonly byInboxStmt: TwoWayStatement;
  private readonly upsertStmt: TwoWayStatement;
  private readonly pollableStmt: TwoWayStatement;
  private readonly checkpointStmt: TwoWayStatement;
  private readonly resetStmt: Statement;
  private readonly syncedStmt: TwoWayStatement;
  private readonly failedStmt: TwoWayStatement;
  private readonly idStmt: TwoWayStatement;
  private readonly insertIdStmt: TwoWayStatement;
  private readonly byUuidStmt: TwoWayStatement;
  private readonly threadStmt: TwoWayStatement;
  private readonly sendingStmt: TwoWayStatement;

  constructor(db: Database) {
    const f = EMAIL_SETTING_FIELDS;
    this.byInboxStmt = new TwoWayStatement(db, "SELECT * FROM email_channels WHERE inbox_id = $inbox_id");
    this.upsertStmt = new TwoWayStatement(
      db,
      `INSERT INTO email_channels (inbox_id, account_id, ${f.join(", ")})
       VALUES ($inbox_id, $account_id, ${f.map((k) => `$${k}`).join(", ")})
       ON CONFLICT(inbox_id) DO UPDATE SET ${f.map((k) => `${k} = excluded.${k}`).join(", ")}`,
    );
    this.pollableStmt = new TwoWayStatement(
      db,
      `SELECT e.* FROM email_channels e JOIN inboxes i ON i.id = e.inbox_id
       WHERE e.imap_enabled = 1 AND e.imap_address IS NOT NULL ORDER BY e.inbox_id`,
    );
    this.checkpointStmt = new TwoWayStatement(
      db,
      "UPDATE email_channels SET uid_validity = $uid_validity, last_uid = $last_uid WHERE inbox_id = $inbox_id",
    );
    this.resetStmt = db.prepare(
      "UPDATE email_channels SET uid_validity = NULL, last_uid = 0 WHERE inbox_id = $inbox_id",
    );
    this.syncedStmt = new TwoWayStatement(
      db,
      `UPDATE email_channels SET last_synced_at = $at,
         last_error = CASE WHEN $keep_error = 1 THEN last_error END, last_error_at = CASE WHEN $keep_error = 1 THEN last_error_at END
       WHERE inbox_id = $inbox_id`,
    );
    this.failedStmt = new TwoWayStatement(
      db,
      "UPDATE email_channels SET last_error = $error, last_error_at = $at WHERE inbox_id = $inbox_id",
    );
    this.idStmt = new TwoWayStatement(
      db,
      "SELECT header_id, conversation_id, message_id, direction FROM email_message_ids WHERE inbox_id = $inbox_id AND header_id = $header_id",
    );
    this.insertIdStmt = new TwoWayStatement(
      db,
      `INSERT OR IGNORE INTO email_message_ids (inbox_id, header_id, conversation_id, message_id, direction, created_at)
       VALUES ($inbox_id, $header_id, $conversation_id, $message_id, $direction, $now)`,
    );
    this.threadStmt = new TwoWayStatement(
      db,
      "SELECT header_id, conversation_id, message_id, direction FROM email_message_ids WHERE conversation_id = $conversation_id ORDER BY id",
    );
    this.sendingStmt = new TwoWayStatement(
      db,
      `SELECT * FROM email_channels WHERE account_id = $account_id AND smtp_enabled = 1 AND smtp_address IS NOT NULL
       ORDER BY inbox_id = $prefer DESC, inbox_id LIMIT 1`,
    );
    this.byUuidStmt = new TwoWayStatement(
      db,
      "SELECT id FROM conversations WHERE uuid = $uuid AND inbox_id = $inbox_id",
    );
  }

  /** An email inbox of the account that can send mail, `prefer` first (the conversation's own inbox). */
  *readSendingChannel(accountId: number, prefer: number): Reads<EmailChannelRow | null> {
    return (yield this.sendingStmt.get({ account_id: accountId, prefer })) as EmailChannelRow | null;
  }

  /** The Message-IDs of a conversation, received and sent, oldest first. */
  *readThread(conversationId: number): Reads<MessageIdRow[]> {
    return (yield this.threadStmt.all({ conversation_id: conversationId })) as MessageIdRow[];
  }

  /** The inbox's conversation with this uuid (a reply+<uuid>@ address), if any. */
  *readConversationByUuid(inboxId: number, uuid: string): Reads<number | null> {
    return ((yield this.byUuidStmt.get({ uuid, inbox_id: inboxId })) as { id: number } | null)?.id ?? null;
  }

  *readByInbox(inboxId: number): Reads<EmailChannelRow | null> {
    return (yield this.byInboxStmt.get({ inbox_id: inboxId })) as EmailChannelRow | null;
  }

  *saveSteps(accountId: number, inboxId: number, settings: EmailSettings): Reads<void> {
    const values: Record<string, unknown> = { inbox_id: inboxId, account_id: accountId };
    for (const k of EMAIL_SETTING_FIELDS) values[k] = settings[k];
    yield this.upsertStmt.write(values as Record<string, string | number | null>);
  }

  /** Email inboxes with IMAP turned on, oldest first. */
  *readPollable(): Reads<EmailChannelRow[]> {
    return (yield this.pollableStmt.all({})) as EmailChannelRow[];
  }

  *checkpointSteps(inboxId: number, uidValidity: number, lastUid: number): Reads<void> {
    yield this.checkpointStmt.write({ inbox_id: inboxId, uid_validity: uidValidity, last_uid: lastUid });
  }

  /** The mailbox or folder changed: start over (Message-IDs already filed keep the restart from filing twice). */
  resetCheckpoint(inboxId: number): void {
    this.resetStmt.run({ inbox_id: inboxId });
  }

  /** A poll that reached the mailbox; the last error stays when this poll noted one (a skipped mail). */
  *syncedSteps(inboxId: number, at: number, keepError: boolean): Reads<void> {
    yield this.syncedStmt.write({ inbox_id: inboxId, at, keep_error: keepError ? 1 : 0 });
  }

  *failedSteps(inboxId: number, error: string, at: number): Reads<void> {
    yield this.failedStmt.write({ inbox_id: inboxId, error: error.slice(0, 1000), at });
  }

  *readMessageId(inboxId: number, headerId: string): Reads<MessageIdRow | null> {
    return (yield this.idStmt.get({ inbox_id: inboxId, header_id: headerId })) as MessageIdRow | null;
  }

  /** Records a Message-ID; false when the inbox already had it (the mail was filed before). */
  recordMessageId(
    inboxId: number,
    row: { header_id: string; conversation_id: number | null; message_id: number | null; direction: "in" | "out" },
    now: number,
  ): boolean {
    return readNow(this.recordMessageIdSteps(inboxId, row, now));
  }

  *recordMessageIdSteps(
    inboxId: number,
    row: { header_id: string; conversation_id: number | null; message_id: number | null; direction: "in" | "out" },
    now: number,
  ): Reads<boolean> {
    return (yield* this.insertIdStmt.changesSteps({ inbox_id: inboxId, ...row, now })) > 0;
  }
}

// Attachment rows (migration 016) and the JSON copy of them that a message row carries.
import type { Database, Statement } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface AttachmentRow {
  id: number;
  account_id: number;
  conversation_id: number;
  message_id: number;
  file_type: string;
  content_type: string;
  filename: string;
  extension: string | null;
  storage_key: string;
  file_size: number;
  width: number | null;
  height: number | null;
  created_at: number;
}

export type NewAttachment = Omit<AttachmentRow, "id">;

/** What a message row keeps of each of its attachments (no storage details). */
export interface AttachmentCopy {
  id: number;
  file_type: string;
  content_type: string;
  filename: string;
  extension: string | null;
  file_size: number;
  width: number | null;
  height: number | null;
}

/** A conversation's attachment with what the list shows of its message. */
export interface ConversationAttachmentRow extends AttachmentRow {
  message_created_at: number;
  sender_type: string | null;
  sender_id: number | null;
}

export function copyOf(a: AttachmentRow): AttachmentCopy {
  return {
    id: a.id,
    file_type: a.file_type,
    content_type: a.content_type,
    filename: a.filename,
    extension: a.extension,
    file_size: a.file_size,
    width: a.width,
    height: a.height,
  };
}

export class AttachmentsRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly copyStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly ofConversationStmt: TwoWayStatement;
  private readonly countConversationStmt: TwoWayStatement;
  private readonly keysOfMessageStmt: TwoWayStatement;
  private readonly keysOfConversationStmt: Statement;
  private readonly keysOfContactStmt: TwoWayStatement;
  private readonly keysOfAccountStmt: TwoWayStatement;
  private readonly deleteOfMessageStmt: TwoWayStatement;
  private readonly inUseStmt: TwoWayStatement;

  constructor(private readonly db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO attachments (account_id, conversation_id, message_id, file_type, content_type, filename, extension, storage_key, file_size, width, height, created_at)
       VALUES ($account_id, $conversation_id, $message_id, $file_type, $content_type, $filename, $extension, $storage_key, $file_size, $width, $height, $created_at)`,
    );
    this.copyStmt = new TwoWayStatement(db, "UPDATE messages SET attachments = $json WHERE id = $id");
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM attachments WHERE id = $id");
    this.ofConversationStmt = new TwoWayStatement(
      db,
      `SELECT a.*, m.created_at AS message_created_at, m.sender_type, m.sender_id FROM attachments a JOIN messages m ON m.id = a.message_id
       WHERE a.conversation_id = $c AND m.private IN (0, $private) ORDER BY a.id DESC LIMIT $limit OFFSET $offset`,
    );
    this.countConversationStmt = new TwoWayStatement(
      db,
      "SELECT count(*) AS n FROM attachments a JOIN messages m ON m.id = a.message_id WHERE a.conversation_id = $c AND m.private IN (0, $private)",
    );
    this.keysOfMessageStmt = new TwoWayStatement(db, "SELECT storage_key FROM attachments WHERE message_id = $id");
    this.keysOfConversationStmt = db.prepare("SELECT storage_key FROM attachments WHERE conversation_id = $id");
    this.keysOfContactStmt = new TwoWayStatement(
      db,
      "SELECT a.storage_key FROM attachments a JOIN conversations c ON c.id = a.conversation_id WHERE c.account_id = $account_id AND c.contact_id = $id",
    );
    this.keysOfAccountStmt = new TwoWayStatement(db, "SELECT storage_key FROM attachments WHERE account_id = $id");
    this.deleteOfMessageStmt = new TwoWayStatement(db, "DELETE FROM attachments WHERE message_id = $id");
    this.inUseStmt = new TwoWayStatement(db, "SELECT 1 FROM attachments WHERE storage_key = $key LIMIT 1");
  }

  *insertSteps(a: NewAttachment): Reads<AttachmentRow> {
    const id = yield* this.insertStmt.insertSteps(a as unknown as Record<string, string | number | null>);
    return { id, ...a };
  }

  /** Writes the message's copy of its attachment records (null: none). */
  *setCopySteps(messageId: number, copies: readonly AttachmentCopy[]): Reads<void> {
    yield this.copyStmt.write({ id: messageId, json: copies.length > 0 ? JSON.stringify(copies) : null });
  }

  /** By id alone: only a signed link (which names the id) leads here. */
  find(id: number): AttachmentRow | null {
    return (this.byIdStmt.statement.get({ id }) as AttachmentRow | null) ?? null;
  }

  *readById(id: number): Reads<AttachmentRow | null> {
    return (yield this.byIdStmt.get({ id })) as AttachmentRow | null;
  }

  /** A page of a conversation's files, newest first, and how many there are; private notes' files only for agents (`withPrivate`). */
  *readOfConversation(
    conversationId: number,
    withPrivate: boolean,
    limit: number,
    offset: number,
  ): Reads<{ total: number; rows: ConversationAttachmentRow[] }> {
    const privateToo = withPrivate ? 1 : 0;
    const counted = (yield this.countConversationStmt.get({ c: conversationId, private: privateToo })) as { n: number };
    const rows = (yield this.ofConversationStmt.all({
      c: conversationId,
      private: privateToo,
      limit,
      offset,
    })) as ConversationAttachmentRow[];
    return { total: counted.n, rows };
  }

  *readKeysOfMessage(messageId: number): Reads<string[]> {
    return ((yield this.keysOfMessageStmt.all({ id: messageId })) as { storage_key: string }[]).map(
      (r) => r.storage_key,
    );
  }

  keysOfConversation(conversationId: number): string[] {
    return (this.keysOfConversationStmt.all({ id: conversationId }) as { storage_key: string }[]).map(
      (r) => r.storage_key,
    );
  }

  *readKeysOfContact(accountId: number, contactId: number): Reads<string[]> {
    const rows = (yield this.keysOfContactStmt.all({ account_id: accountId, id: contactId })) as {
      storage_key: string;
    }[];
    return rows.map((r) => r.storage_key);
  }

  *readKeysOfAccount(accountId: number): Reads<string[]> {
    const rows = (yield this.keysOfAccountStmt.all({ id: accountId })) as { storage_key: string }[];
    return rows.map((r) => r.storage_key);
  }

  *deleteOfMessageSteps(messageId: number): Reads<void> {
    yield this.deleteOfMessageStmt.write({ id: messageId });
  }

  /** Every stored file's key (a backup copies them). */
  allKeys(): string[] {
    return (this.db.query("SELECT DISTINCT storage_key FROM attachments").all() as { storage_key: string }[]).map(
      (r) => r.storage_key,
    );
  }

  *readInUse(key: string): Reads<boolean> {
    return (yield this.inUseStmt.get({ key })) !== null;
  }
}

// Files on messages. Before the transaction: each upload is checked (a real file part, its type
// sniffed from its bytes, an image's size read from its header) and staged in the file store.
// Inside it: the message's attachment rows and their copy on the message row, with the store's
// commit step. After it: files that deleted rows no longer need are released.
import { type AttachmentRow, type AttachmentsRepo, copyOf } from "../db/attachments.repo.ts";
import type { MessageRow } from "../db/messages.repo.ts";
import { type Reads, readNow, readSoon } from "../db/reads.ts";
import { imageSize } from "../files/image-size.ts";
import type { FileLinks } from "../files/links.ts";
import { isSpooledFile, type SpooledFile } from "../files/multipart.ts";
import { fileTypeOf, sniff } from "../files/sniff.ts";
import { spoolBytes } from "../files/spool-bytes.ts";
import type { ByteRange, FileStore, StagedFile } from "../files/store.ts";
import type { Logger } from "../lib/logger.ts";
import { ForbiddenError, NotFoundError, ValidationError } from "./errors.ts";

/** An upload checked and staged, waiting for its message. */
export interface PreparedFile {
  staged: StagedFile;
  filename: string;
  mime: string;
  extension: string | null;
  fileType: string;
  width: number | null;
  height: number | null;
}

export interface AttachmentsDeps {
  attachments: AttachmentsRepo;
  store: FileStore;
  links: FileLinks;
  logger: Logger;
  /** Runs `fn` once the writes made so far are committed (group commit: src/db/tx.ts); `orElse` if they rolled back. */
  afterCommit: (fn: () => void, orElse?: () => void) => void;
}

export interface Download {
  row: AttachmentRow;
  body: ReadableStream<Uint8Array> | Blob;
}

/** A JPEG's frame header can follow a large EXIF block: look further into the spooled file. */
async function jpegSizeFromDisk(file: SpooledFile) {
  return imageSize(
    "image/jpeg",
    new Uint8Array(
      await Bun.file(file.path)
        .slice(0, 1024 * 1024)
        .arrayBuffer(),
    ),
  );
}

const NOT_A_FILE =
  "must be files sent as multipart/form-data parts (attachments[]); links, direct-upload ids and base64 text are not accepted";

export class AttachmentsService {
  /** File removals under way (released()). */
  private readonly removals = new Set<Promise<void>>();
  /** Keys awaited bodies are attaching, and how many (holding()). */
  private readonly held = new Map<string, number>();

  /**
   * Whether a row refers to the key, or one is being written. In place, not on PostgreSQL's read
   * pool: a message written with the same file in the open write group (its row not yet committed)
   * must count as using it, as must one an awaited body is writing (holding()).
   */
  private readonly inUse = (key: string): boolean => this.held.has(key) || readNow(this.d.attachments.readInUse(key));

  constructor(private readonly d: AttachmentsDeps) {}

  /** Checks and stages the request's `attachments` (absent or empty: none). Runs before the writeTx. */
  async prepare(raw: unknown): Promise<PreparedFile[]> {
    if (raw === undefined || raw === null || raw === "") return [];
    const list = Array.isArray(raw)
      ? raw
      : typeof raw === "object" && !isSpooledFile(raw)
        ? Object.values(raw as object)
        : [raw];
    const files: SpooledFile[] = [];
    list.forEach((item, i) => {
      if (!isSpooledFile(item)) throw ValidationError.of(`attachments[${i}]`, NOT_A_FILE, "invalid");
      if (item.size === 0) throw ValidationError.of(`attachments[${i}]`, `${item.filename} is empty`, "invalid");
      files.push(item);
    });
    const prepared: PreparedFile[] = [];
    for (const file of files) {
      const { mime, extension } = sniff(file.head, file.filename);
      const size =
        imageSize(mime, file.head) ??
        (mime === "image/jpeg" && file.size > file.head.length ? await jpegSizeFromDisk(file) : null);
      prepared.push({
        staged: await this.d.store.stage(file),
        filename: file.filename,
        mime,
        extension,
        fileType: fileTypeOf(mime),
        width: size?.width ?? null,
        height: size?.height ?? null,
      });
    }
    return prepared;
  }

  /** Files that arrived by other means than an upload (a mail's attachments), checked and staged alike. */
  async prepareBytes(files: readonly { filename: string; bytes: Uint8Array }[]): Promise<PreparedFile[]> {
    const spooled = [];
    for (const f of files) spooled.push(await spoolBytes(this.d.store.spoolDir, f.filename, f.bytes));
    return this.prepare(spooled);
  }

  /**
   * Steps of the message's write: the store's commit step, the rows, the message's copy. The store's
   * step is a file operation done in place between the statements; a file's key is its content's
   * hash, so another message may already have put it there.
   */
  *attachSteps(message: MessageRow, files: readonly PreparedFile[]): Reads<MessageRow> {
    if (files.length === 0) return message;
    const rows: AttachmentRow[] = [];
    for (const f of files) {
      this.d.store.commitInTx(f.staged);
      rows.push(
        yield* this.d.attachments.insertSteps({
          account_id: message.account_id,
          conversation_id: message.conversation_id,
          message_id: message.id,
          file_type: f.fileType,
          content_type: f.mime,
          filename: f.filename,
          extension: f.extension,
          storage_key: f.staged.key,
          file_size: f.staged.size,
          width: f.width,
          height: f.height,
          created_at: message.created_at,
        }),
      );
    }
    const copies = rows.map(copyOf);
    yield* this.d.attachments.setCopySteps(message.id, copies);
    return { ...message, attachments: JSON.stringify(copies) };
  }

  /**
   * Around an awaited body that attaches these files: until it has settled, their keys count as in
   * use. Its rows are on a connection of their own (PostgreSQL), which the in-place check of a
   * release or the sweep cannot see, and the file may already be in the store for another message
   * that is being deleted. Returns what ends the hold.
   */
  holding(files: readonly PreparedFile[]): () => void {
    for (const f of files) this.held.set(f.staged.key, (this.held.get(f.staged.key) ?? 0) + 1);
    return () => {
      for (const f of files) {
        const n = (this.held.get(f.staged.key) ?? 1) - 1;
        if (n <= 0) this.held.delete(f.staged.key);
        else this.held.set(f.staged.key, n);
      }
    };
  }

  /** Steps of a message delete: drops its attachments (Chatwoot purges them); returns their keys. */
  *detachSteps(messageId: number): Reads<string[]> {
    const keys = yield* this.d.attachments.readKeysOfMessage(messageId);
    if (keys.length === 0) return keys;
    yield* this.d.attachments.deleteOfMessageSteps(messageId);
    yield* this.d.attachments.setCopySteps(messageId, []);
    return keys;
  }

  /** Keys of files a conversation, contact or account delete is about to take with it (read before the delete). */
  keysOfConversation(conversationId: number): string[] {
    return this.d.attachments.keysOfConversation(conversationId);
  }

  readKeysOfContact(accountId: number, contactId: number): Reads<string[]> {
    return this.d.attachments.readKeysOfContact(accountId, contactId);
  }

  readKeysOfAccount(accountId: number): Reads<string[]> {
    return this.d.attachments.readKeysOfAccount(accountId);
  }

  /** Call after the writeTx that removed the rows: their files go once that is committed. */
  release(keys: readonly string[]): void {
    if (keys.length === 0) return;
    const removal = new Promise<void>((done) =>
      this.d.afterCommit(() => {
        this.d.store
          .release(keys, this.inUse)
          .catch((error) => this.d.logger.warn("attachment files not removed", { error: String(error) }))
          .finally(done);
      }, done),
    );
    this.removals.add(removal);
    void removal.then(() => this.removals.delete(removal));
  }

  /** Tests: the file removals asked for so far (after their commits) have ended. */
  async released(): Promise<void> {
    await Promise.all(this.removals);
  }

  /** A conversation's files, newest first (Chatwoot's GET conversations/:id/attachments). */
  /** A page of a conversation's files (100 a page) and their count: a Reads, awaited on PostgreSQL. */
  readOfConversation(conversationId: number, withPrivate: boolean, page: number) {
    const perPage = 100;
    return this.d.attachments.readOfConversation(conversationId, withPrivate, perPage, (page - 1) * perPage);
  }

  /** The file behind a signed link: 403 when the link is forged or expired, 404 when the file is gone. */
  async download(
    rawId: string,
    expires: unknown,
    signature: unknown,
    range?: (size: number) => ByteRange | undefined,
  ): Promise<Download & { range?: ByteRange }> {
    const id = /^\d{1,15}$/.test(rawId) ? Number(rawId) : 0;
    const exp = typeof expires === "string" && /^\d{1,12}$/.test(expires) ? Number(expires) : Number.NaN;
    if (!id || typeof signature !== "string" || !this.d.links.verify(id, exp, signature)) {
      throw new ForbiddenError("This file link is not valid or has expired; load the message again for a fresh link");
    }
    // Read-only: awaited on PostgreSQL's read pool (src/db/reads.ts), in place on SQLite.
    const row = await readSoon(this.d.attachments.readById(id));
    if (!row) throw new NotFoundError("Attachment", "id", `no attachment ${id}`);
    const r = range?.(row.file_size);
    const body = await this.d.store.read(row.storage_key, row.file_size, r);
    if (!body) throw new NotFoundError("Attachment", "id", `the file of attachment ${id} is missing from storage`);
    return { row, body, ...(r ? { range: r } : {}) };
  }

  /** Removes stored files no row refers to, older than a day (uploads of failed requests, crashes). */
  sweep(nowMs: number): Promise<number> {
    return this.d.store.sweep(nowMs - 24 * 60 * 60 * 1000, this.inUse);
  }
}

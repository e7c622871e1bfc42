// Attachments in S3-compatible object storage through Bun's built-in client. Each attachment gets
// its own object (`attachments/<uuid>`): objects cannot be renamed inside a database transaction,
// so sharing one object between rows (as the disk store does) could race a release against a new
// upload. Uploads still spool to a local directory first: the request body is read once, at the
// client's pace, and the object is written from the finished file.
import { mkdirSync } from "node:fs";
import { unlink } from "node:fs/promises";
import type { SpooledFile } from "./multipart.ts";
import type { ByteRange, FileStore, StagedFile } from "./store.ts";

export interface S3Settings {
  bucket: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

const PREFIX = "attachments/";

export class S3Store implements FileStore {
  readonly kind = "s3" as const;
  private readonly client: Bun.S3Client;

  constructor(
    settings: S3Settings,
    readonly spoolDir: string,
  ) {
    mkdirSync(spoolDir, { recursive: true, mode: 0o700 });
    this.client = new Bun.S3Client({
      bucket: settings.bucket,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.region ? { region: settings.region } : {}),
      ...(settings.accessKeyId ? { accessKeyId: settings.accessKeyId } : {}),
      ...(settings.secretAccessKey ? { secretAccessKey: settings.secretAccessKey } : {}),
    });
  }

  async stage(file: SpooledFile): Promise<StagedFile> {
    const key = `${PREFIX}${crypto.randomUUID()}`;
    await this.client.write(key, Bun.file(file.path), { type: "application/octet-stream" });
    await unlink(file.path).catch(() => {});
    return { key, size: file.size, spoolPath: file.path };
  }

  commitInTx(): void {}

  async read(key: string, size: number, range?: ByteRange): Promise<ReadableStream<Uint8Array> | null> {
    const object = this.client.file(key);
    if (!(await object.exists())) return null;
    return (range ? object.slice(range.start, range.end + 1) : object.slice(0, size)).stream();
  }

  async release(keys: readonly string[], inUse: (key: string) => boolean): Promise<void> {
    for (const key of new Set(keys)) if (!inUse(key)) await this.client.delete(key).catch(() => {});
  }

  async sweep(olderThanMs: number, inUse: (key: string) => boolean): Promise<number> {
    let removed = 0;
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.client.list({ prefix: PREFIX, maxKeys: 1000, ...(startAfter ? { startAfter } : {}) });
      const contents = page.contents ?? [];
      for (const o of contents) {
        const modified = o.lastModified ? Date.parse(String(o.lastModified)) : Number.NaN;
        if (!(modified < olderThanMs) || inUse(o.key)) continue;
        await this.client.delete(o.key).catch(() => {});
        removed++;
      }
      if (!page.isTruncated || contents.length === 0) return removed;
      startAfter = contents.at(-1)!.key;
    }
  }
}

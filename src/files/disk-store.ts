// Attachments in a directory beside the database: `<dir>/ab/abcdef…` named by the content's
// SHA-256 (the same file sent twice is stored once), uploads spooled in `<dir>/tmp/`.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, statSync, unlinkSync } from "node:fs";
import { readdir, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { SpooledFile } from "./multipart.ts";
import type { ByteRange, FileStore, StagedFile } from "./store.ts";

const KEY = /^[0-9a-f]{64}$/;

export class DiskStore implements FileStore {
  readonly kind = "disk" as const;
  readonly spoolDir: string;

  constructor(private readonly dir: string) {
    this.spoolDir = join(dir, "tmp");
    mkdirSync(this.spoolDir, { recursive: true, mode: 0o700 });
  }

  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`not a storage key: ${key}`);
    return join(this.dir, key.slice(0, 2), key);
  }

  async stage(file: SpooledFile): Promise<StagedFile> {
    return { key: file.sha256, size: file.size, spoolPath: file.path };
  }

  /**
   * Inside the transaction, so a concurrent `release` of the same content (which also runs on
   * the write connection) cannot remove the file between its rename and its row.
   */
  commitInTx(file: StagedFile): void {
    const target = this.pathOf(file.key);
    const folder = join(this.dir, file.key.slice(0, 2));
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    let exists = false;
    try {
      exists = statSync(target).size === file.size;
    } catch {}
    if (exists) return; // the spool copy is removed with the request
    renameSync(file.spoolPath, target);
    // The new name must survive a power cut as well as the bytes (fsynced when spooled).
    const fd = openSync(folder, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  async read(key: string, size: number, range?: ByteRange): Promise<Blob | null> {
    const file = Bun.file(this.pathOf(key));
    if (!(await file.exists())) return null;
    return range ? file.slice(range.start, range.end + 1) : file.slice(0, size);
  }

  async release(keys: readonly string[], inUse: (key: string) => boolean): Promise<void> {
    for (const key of new Set(keys)) {
      if (inUse(key)) continue;
      try {
        unlinkSync(this.pathOf(key));
      } catch {}
    }
  }

  async sweep(olderThanMs: number, inUse: (key: string) => boolean): Promise<number> {
    let removed = 0;
    for (const folder of await readdir(this.dir).catch(() => [] as string[])) {
      const isSpool = folder === "tmp";
      if (!isSpool && !/^[0-9a-f]{2}$/.test(folder)) continue;
      for (const name of await readdir(join(this.dir, folder)).catch(() => [] as string[])) {
        const path = join(this.dir, folder, name);
        const info = await stat(path).catch(() => null);
        if (!info || info.mtimeMs >= olderThanMs) continue;
        if (!isSpool && (!KEY.test(name) || inUse(name))) continue;
        await unlink(path).catch(() => {});
        removed++;
      }
    }
    return removed;
  }
}

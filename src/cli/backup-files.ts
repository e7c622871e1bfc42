// `parley backup` copies the attachment files the database copy refers to, in the store's own
// layout, to `<copy>.files` — the directory a server started on the copy reads by default. Files
// are immutable and named by content, so copying after the database snapshot is consistent; a
// file deleted between the snapshot and its copy is counted as missing.
import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { AttachmentsRepo } from "../db/attachments.repo.ts";
import { openDatabase } from "../db/open.ts";

export async function copyAttachmentFiles(
  snapshot: string,
  from: string,
  to: string,
): Promise<{ copied: number; missing: number }> {
  const db = openDatabase(snapshot);
  let keys: string[];
  try {
    keys = new AttachmentsRepo(db).allKeys();
  } finally {
    db.close();
  }
  let copied = 0;
  let missing = 0;
  for (const key of keys) {
    const folder = join(to, key.slice(0, 2));
    await mkdir(folder, { recursive: true, mode: 0o700 });
    try {
      await copyFile(join(from, key.slice(0, 2), key), join(folder, key));
      copied++;
    } catch {
      missing++;
    }
  }
  return { copied, missing };
}

// The file store the configuration asks for, and the links that point into it.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { Clock } from "../lib/clock.ts";
import { DiskStore } from "./disk-store.ts";
import { FileLinks } from "./links.ts";
import { S3Store, type S3Settings } from "./s3-store.ts";
import type { FileStore } from "./store.ts";

export interface Files {
  store: FileStore;
  links: FileLinks;
}

export interface SecretSource {
  getOrCreate(name: string, make: () => string): string;
}

/** The part of the configuration (src/config-files.ts) the store needs. */
export interface FileStoreSettings {
  dir: string;
  publicUrl: string;
  s3: S3Settings | null;
}

export function createFileStore(config: FileStoreSettings, secrets: SecretSource, clock: Clock): Files {
  const store = config.s3 ? new S3Store(config.s3, join(config.dir, "tmp")) : new DiskStore(config.dir);
  const key = secrets.getOrCreate("file_links", () => randomBytes(32).toString("base64url"));
  return { store, links: new FileLinks(config.publicUrl, key, clock) };
}

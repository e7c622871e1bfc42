// Where attachment bytes live. Two kinds with one life cycle, so the service and the tests treat
// them alike:
//   stage (async, before the transaction)  → the bytes are durable in the store, under a key
//   commitInTx (sync, inside the writeTx)  → the key becomes visible (disk: the rename)
//   release (after the commit)             → bytes no row refers to any more are removed
// A crash between any two steps leaves at worst bytes without a row, which `sweep` removes; never
// a row without bytes.
import type { SpooledFile } from "./multipart.ts";

export interface StagedFile {
  readonly key: string;
  readonly size: number;
  /** The spool file still to move (disk) or already copied and removable (S3). */
  readonly spoolPath: string;
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

export interface FileStore {
  readonly kind: "disk" | "s3";
  stage(file: SpooledFile): Promise<StagedFile>;
  /** Synchronous by contract: it runs inside a writeTx. */
  commitInTx(file: StagedFile): void;
  /** A readable body of the whole object or a range of it; null when the object is missing. */
  read(key: string, size: number, range?: ByteRange): Promise<ReadableStream<Uint8Array> | Blob | null>;
  /** Removes these keys if `inUse` says no row refers to them any more. */
  release(keys: readonly string[], inUse: (key: string) => boolean): Promise<void>;
  /** Removes stored objects older than `olderThanMs` (epoch ms) that no row refers to; returns how many. */
  sweep(olderThanMs: number, inUse: (key: string) => boolean): Promise<number>;
  /** Where spooled uploads wait (always a local directory). */
  readonly spoolDir: string;
}

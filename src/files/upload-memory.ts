// Gives back the memory of upload chunks already written to disk. Bun hands a request body to its
// reader in 64–512 KB buffers that stay resident until a garbage collection frees them and the
// allocator (mimalloc) returns their pages; JavaScriptCore does not count them as pressure soon
// enough, so 32 concurrent 10 MB uploads left ~130 MB of written chunks resident (peak RSS 183–221 MB
// in `bun test/bench/uploads.ts 8`). Two things, together, bring it to 118–135 MB:
//   - releaseChunk detaches each chunk's buffer as soon as its bytes are written or copied, which
//     frees it at once (alone: 160–164 MB; the reader's other garbage still waits for a collection);
//   - UploadMemory runs a synchronous `Bun.gc(true)` (a full collection, then mimalloc's clean-up;
//     `Bun.gc(false)` or a higher GC aggression level did not move the peak) when the resident memory
//     has grown by `headroomBytes` since the last collection (or since its lowest point), checked every
//     `checkEveryBytes` of file bytes. A collection pauses the process ~16 ms here, so its cost is
//     bounded by the growth: at most one per headroom, none on a server whose memory does not climb.

export interface UploadMemoryOptions {
  /** File bytes between two looks at the resident memory (a look costs ~8 µs). */
  checkEveryBytes: number;
  /** Growth of the resident memory that makes a collection worth its pause. */
  headroomBytes: number;
  /** The process's resident memory, in bytes. */
  rss(): number;
  /** Frees what nothing references and returns the allocator's free pages. */
  collect(): void;
}

export class UploadMemory {
  private sinceCheck = 0;
  /** The resident memory after the last collection, or the lowest seen since. */
  private low = Number.POSITIVE_INFINITY;

  constructor(private readonly o: UploadMemoryOptions) {}

  /** Counts a chunk of file bytes written to the spool; now and then looks at the memory. */
  written(bytes: number): void {
    this.sinceCheck += bytes;
    if (this.sinceCheck < this.o.checkEveryBytes) return;
    this.sinceCheck %= this.o.checkEveryBytes;
    const rss = this.o.rss();
    if (rss < this.low) this.low = rss;
    if (rss <= this.low + this.o.headroomBytes) return;
    this.o.collect();
    // What a collection leaves is live (bodies not read yet, the heap): growth counts from there,
    // so memory that cannot be freed does not cause a collection at every look.
    this.low = this.o.rss();
  }
}

const MB = 1024 * 1024;

/** The process's own: one per process, since it watches the process's memory. */
export const uploadMemory = new UploadMemory({
  checkEveryBytes: 4 * MB,
  headroomBytes: 32 * MB,
  rss: () => process.memoryUsage.rss(),
  collect: () => Bun.gc(true),
});

/**
 * Frees a body chunk's memory the moment its bytes are on disk or copied, instead of when a garbage
 * collection finds it: detaching the ArrayBuffer (`transfer(0)`) hands its memory back at once, and
 * the next chunk reuses it. A bare `Bun.serve` writing 32 concurrent 10 MB bodies peaked 40–46 MB over
 * its idle memory without it and 16 MB with it. Only a chunk that is its whole ArrayBuffer (Bun's are)
 * is detached, and only when `carried` — the bytes the reader keeps for the next chunk — is no view of it.
 */
export function releaseChunk(chunk: Uint8Array, carried: Uint8Array): void {
  const memory = chunk.buffer;
  if (!(memory instanceof ArrayBuffer) || memory.detached || carried.buffer === memory) return;
  if (chunk.byteOffset !== 0 || chunk.byteLength !== memory.byteLength) return;
  memory.transfer(0);
}

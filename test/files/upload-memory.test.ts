// Upload memory: each body chunk is freed once its bytes are written (and never while the reader
// still holds a view of it); when uploads still make the process's memory climb, a collection runs,
// and when they do not, nothing pauses the process. The resident memory is a scripted sequence here,
// so each look is exact.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readMultipart } from "../../src/files/multipart.ts";
import { releaseChunk, UploadMemory } from "../../src/files/upload-memory.ts";

const MB = 1024 * 1024;

/** An UploadMemory whose looks at the memory return `readings` in turn (the last one repeats). */
function scripted(readings: number[], opts = { checkEveryBytes: 4 * MB, headroomBytes: 32 * MB }) {
  const looks: number[] = [];
  let collections = 0;
  const memory = new UploadMemory({
    ...opts,
    rss: () => {
      const value = readings[Math.min(looks.length, readings.length - 1)]! * MB;
      looks.push(value / MB);
      return value;
    },
    collect: () => {
      collections++;
    },
  });
  return { memory, looks, collections: () => collections };
}

describe("UploadMemory", () => {
  test("looks at the memory once per 4 MB of file bytes, not per chunk", () => {
    const s = scripted([90]);
    for (let i = 0; i < 63; i++) s.memory.written(64 * 1024); // 3.94 MB
    expect(s.looks).toEqual([]);
    s.memory.written(64 * 1024);
    expect(s.looks).toEqual([90]);
    for (let i = 0; i < 64; i++) s.memory.written(64 * 1024);
    expect(s.looks).toEqual([90, 90]);
  });

  test("collects when memory has grown by more than the headroom since its lowest point", () => {
    // 90 is the low; 122 is exactly 32 MB above it (no collection), 123 is above (one, then a look).
    const s = scripted([100, 90, 110, 122, 123, 95]);
    for (let i = 0; i < 5; i++) s.memory.written(4 * MB);
    expect(s.collections()).toBe(1);
    expect(s.looks).toEqual([100, 90, 110, 122, 123, 95]);
  });

  test("memory a collection cannot free does not cause a collection at every look", () => {
    // After the collection 140 MB remain (bodies not read yet): the next collection waits for 172+.
    const s = scripted([90, 130, 140, 150, 171, 173, 120]);
    for (let i = 0; i < 5; i++) s.memory.written(4 * MB);
    expect(s.looks).toEqual([90, 130, 140, 150, 171, 173, 120]);
    expect(s.collections()).toBe(2);
  });

  test("a server whose memory does not climb never collects", () => {
    const s = scripted([95, 97, 96, 110, 99]);
    for (let i = 0; i < 200; i++) s.memory.written(4 * MB);
    expect(s.looks.length).toBe(200);
    expect(s.collections()).toBe(0);
  });
});

describe("readMultipart and UploadMemory", () => {
  test("every byte of a file part counts; ordinary fields do not", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-upload-memory-"));
    try {
      const boundary = "----memoryB0undary";
      const file = Buffer.alloc(3 * MB + 1000, 7);
      const field = "x".repeat(2 * MB);
      const raw = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="content"\r\n\r\n${field}\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="attachments[]"; filename="a.bin"\r\n\r\n`),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      let at = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(c) {
          if (at >= raw.length) return c.close();
          c.enqueue(raw.subarray(at, at + 100_000));
          at += 100_000;
        },
      });
      // Memory climbs 20 MB per look; with a 1 MB look interval the 3 MB file makes three looks.
      const s = scripted([100, 120, 140, 160], { checkEveryBytes: MB, headroomBytes: 32 * MB });
      const spooled: string[] = [];
      const limits = { fields: 4 * MB, file: 8 * MB, total: 8 * MB, files: 1 };
      const entries = await readMultipart(stream, boundary, limits, dir, (p) => spooled.push(p), s.memory);
      expect(entries.map(([name]) => name)).toEqual(["content", "attachments[]"]);
      expect(s.looks).toEqual([100, 120, 140, 160]);
      expect(s.collections()).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("releaseChunk", () => {
  test("a whole chunk nothing keeps is detached; a carried one, a view or a detached one is left", () => {
    const whole = new Uint8Array(4096).fill(1);
    releaseChunk(whole, new Uint8Array(0));
    expect([whole.buffer.detached, whole.byteLength]).toEqual([true, 0]);
    releaseChunk(whole, new Uint8Array(0)); // twice is harmless

    const carried = new Uint8Array(4096).fill(2);
    const tail = Buffer.from(carried.buffer, 4000, 96);
    releaseChunk(carried, tail);
    expect([carried.buffer.detached, tail[0]]).toEqual([false, 2]);

    const memory = new ArrayBuffer(8192);
    const view = new Uint8Array(memory, 0, 4096);
    releaseChunk(view, new Uint8Array(0));
    expect(memory.detached).toBe(false);
  });

  test("reading a body detaches each chunk once its bytes are on disk, and the file is intact", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-release-"));
    try {
      const boundary = "----releaseB0undary";
      const file = Buffer.alloc(MB, 0);
      for (let i = 0; i < file.length; i++) file[i] = (i * 7) & 255;
      const raw = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n\r\n`),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < raw.length; at += 64 * 1024) chunks.push(new Uint8Array(raw.subarray(at, at + 64 * 1024))); // each its own buffer
      let next = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(c) {
          if (next >= chunks.length) return c.close();
          c.enqueue(chunks[next++]!);
        },
      });
      const limits = { fields: MB, file: 2 * MB, total: 2 * MB, files: 1 };
      const entries = await readMultipart(stream, boundary, limits, dir, () => {});
      expect(chunks.map((c) => (c.buffer as ArrayBuffer).detached)).toEqual(chunks.map(() => true));
      const spooled = entries[0]![1] as { path: string; size: number };
      expect(spooled.size).toBe(MB);
      expect(Buffer.from(await Bun.file(spooled.path).arrayBuffer()).equals(file)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

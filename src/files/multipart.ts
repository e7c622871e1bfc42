// A streaming multipart/form-data reader. Bun's Request.formData() holds the whole body in memory;
// a helpdesk receives 40 MB videos from many clients at once, so file parts are written to a spool
// file chunk by chunk (hashed and sized on the way, fsynced at the end) and only ordinary fields
// stay in memory. What the route sees for a file is a SpooledFile: its name, declared type, size,
// content hash, first bytes (for sniffing) and where it waits on disk.
import { closeSync, fsync, openSync, writeSync } from "node:fs";
import { unlink } from "node:fs/promises";
import { join } from "node:path";
import { releaseChunk, type UploadMemory, uploadMemory } from "./upload-memory.ts";

export interface SpooledFile {
  readonly spooled: true;
  readonly filename: string;
  /** The type the client declared (the stored type is sniffed from the bytes). */
  readonly declaredType: string;
  readonly size: number;
  /** Hex SHA-256 of the content. */
  readonly sha256: string;
  /** The first HEAD_BYTES bytes: enough to sniff the type and read an image's size. */
  readonly head: Uint8Array;
  readonly path: string;
}

export const HEAD_BYTES = 64 * 1024;

export function isSpooledFile(value: unknown): value is SpooledFile {
  return typeof value === "object" && value !== null && (value as { spooled?: unknown }).spooled === true;
}

export interface MultipartLimits {
  /** Bytes of ordinary (non-file) fields, together. */
  fields: number;
  /** Bytes of one file. */
  file: number;
  /** Bytes of all files of the request together. */
  total: number;
  /** Number of file parts. */
  files: number;
}

export class MultipartError extends Error {
  constructor(
    message: string,
    readonly kind: "malformed" | "too_large",
    readonly limit = 0,
  ) {
    super(message);
  }
}

export type Entry = [string, string | SpooledFile];

const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");
const MAX_HEADER_BYTES = 16 * 1024;

export function boundaryOf(contentType: string): string | null {
  const m = /boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]!) : null;
}

function parseHeaders(raw: string): { name: string | null; filename: string | null; type: string } {
  let name: string | null = null;
  let filename: string | null = null;
  let type = "application/octet-stream";
  for (const line of raw.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "content-type") type = value.split(";")[0]!.trim().toLowerCase() || type;
    if (key !== "content-disposition") continue;
    name = /\bname="([^"]*)"/i.exec(value)?.[1] ?? /\bname=([^;\s]+)/i.exec(value)?.[1] ?? null;
    const star = /\bfilename\*=(?:UTF-8|utf-8)''([^;\s]+)/.exec(value)?.[1];
    if (star) {
      try {
        filename = decodeURIComponent(star);
      } catch {
        filename = star;
      }
    } else filename = /\bfilename="([^"]*)"/i.exec(value)?.[1] ?? /\bfilename=([^;\s]+)/i.exec(value)?.[1] ?? null;
  }
  return { name, filename, type };
}

/**
 * A file part being written: bytes go to disk as they arrive. Writes are synchronous on purpose:
 * a 64 KB write into the page cache takes microseconds, while an awaited write per chunk lets the
 * socket outrun the reader, and Bun then holds the unread body in memory (measured: 32 uploads of
 * 10 MB at once peaked at 130 MB with a slow reader, 25 MB with one that keeps up).
 */
class FileSink {
  private readonly hasher = new Bun.CryptoHasher("sha256");
  private readonly headParts: Buffer[] = [];
  private headSize = 0;
  size = 0;
  private constructor(
    private readonly fd: number,
    readonly path: string,
    private readonly memory: UploadMemory,
  ) {}

  static create(dir: string, memory: UploadMemory): FileSink {
    const path = join(dir, `upload-${crypto.randomUUID()}.part`);
    return new FileSink(openSync(path, "wx", 0o600), path, memory);
  }

  write(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.size += chunk.length;
    this.hasher.update(chunk);
    if (this.headSize < HEAD_BYTES) {
      const take = chunk.subarray(0, HEAD_BYTES - this.headSize);
      this.headParts.push(Buffer.from(take));
      this.headSize += take.length;
    }
    let offset = 0;
    while (offset < chunk.length) offset += writeSync(this.fd, chunk, offset, chunk.length - offset);
    this.memory.written(chunk.length);
  }

  /** Durable before anyone refers to it: a database row never points at bytes still in a cache. */
  async finish(filename: string, declaredType: string): Promise<SpooledFile> {
    await new Promise<void>((resolve, reject) => fsync(this.fd, (error) => (error ? reject(error) : resolve())));
    closeSync(this.fd);
    return {
      spooled: true,
      filename,
      declaredType,
      size: this.size,
      sha256: this.hasher.digest("hex"),
      head: new Uint8Array(Buffer.concat(this.headParts)),
      path: this.path,
    };
  }

  async abort(): Promise<void> {
    try {
      closeSync(this.fd);
    } catch {}
    await unlink(this.path).catch(() => {});
  }
}

/**
 * Reads the stream to its end. File parts land in `spoolDir`; every spooled file (also those of
 * a request that fails half-way) is reported through `onSpooled`, so the caller can remove them.
 * `memory` gives back the written chunks' memory under a burst (upload-memory.ts).
 */
export async function readMultipart(
  stream: ReadableStream<Uint8Array>,
  boundary: string,
  limits: MultipartLimits,
  spoolDir: string,
  onSpooled: (path: string) => void,
  memory: UploadMemory = uploadMemory,
): Promise<Entry[]> {
  const first = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const entries: Entry[] = [];
  let buffer: Buffer = Buffer.alloc(0);
  let state: "preamble" | "after-delimiter" | "headers" | "body" | "done" = "preamble";
  let part: { name: string; filename: string | null; type: string; sink: FileSink | null; field: Buffer[] } | null =
    null;
  let fieldBytes = 0;
  let fileBytes = 0;
  let fileCount = 0;
  const reader = stream.getReader();

  const tooLarge = (what: string, limit: number) =>
    new MultipartError(`${what} is larger than ${limit} bytes`, "too_large", limit);

  const emit = async (data: Buffer) => {
    if (!part || data.length === 0) return;
    if (part.sink) {
      if (part.sink.size + data.length > limits.file)
        throw tooLarge(`The file ${part.filename ?? ""}`.trimEnd(), limits.file);
      fileBytes += data.length;
      if (fileBytes > limits.total) throw tooLarge("The request's files together", limits.total);
      part.sink.write(data);
    } else {
      fieldBytes += data.length;
      if (fieldBytes > limits.fields) throw tooLarge("The request's fields", limits.fields);
      part.field.push(Buffer.from(data));
    }
  };

  const closePart = async () => {
    if (!part) return;
    if (part.sink) {
      const sink = part.sink;
      part.sink = null;
      entries.push([part.name, await sink.finish(part.filename ?? "file", part.type)]);
    } else entries.push([part.name, Buffer.concat(part.field).toString("utf8")]);
    part = null;
  };

  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (value) {
        const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
        if (buffer.length === 0) buffer = chunk;
        else if (
          state === "body" &&
          buffer.length < delimiter.length &&
          chunk.length >= delimiter.length &&
          !Buffer.concat([buffer, chunk.subarray(0, delimiter.length - 1)]).includes(delimiter)
        ) {
          // The carried tail is content (no delimiter spans the junction): write it and take the
          // chunk as it is, rather than copying every chunk of a large file into a new buffer.
          await emit(buffer);
          buffer = chunk;
        } else buffer = Buffer.concat([buffer, chunk]);
      }
      let progressed = true;
      while (progressed && state !== "done") {
        progressed = false;
        if (state === "preamble") {
          const i = buffer.indexOf(first);
          if (i < 0) break;
          buffer = buffer.subarray(i + first.length);
          state = "after-delimiter";
          progressed = true;
        } else if (state === "after-delimiter") {
          if (buffer.length < 2) break;
          if (buffer[0] === 0x2d && buffer[1] === 0x2d) {
            state = "done";
            break;
          }
          const eol = buffer.indexOf(CRLF);
          if (eol < 0) {
            if (buffer.length > 256) throw new MultipartError("A multipart boundary line is malformed", "malformed");
            break;
          }
          buffer = buffer.subarray(eol + 2);
          state = "headers";
          progressed = true;
        } else if (state === "headers") {
          const end = buffer.indexOf(HEADER_END);
          if (end < 0) {
            if (buffer.length > MAX_HEADER_BYTES)
              throw new MultipartError("A multipart part's headers are too long", "malformed");
            break;
          }
          const h = parseHeaders(buffer.subarray(0, end).toString("utf8"));
          buffer = buffer.subarray(end + 4);
          if (h.name === null) throw new MultipartError("A multipart part has no field name", "malformed");
          let sink: FileSink | null = null;
          if (h.filename !== null) {
            if (++fileCount > limits.files)
              throw new MultipartError(`At most ${limits.files} files per request`, "too_large", limits.files);
            sink = FileSink.create(spoolDir, memory);
            onSpooled(sink.path);
          }
          part = { name: h.name, filename: h.filename, type: h.type, sink, field: [] };
          state = "body";
          progressed = true;
        } else if (state === "body") {
          const i = buffer.indexOf(delimiter);
          if (i >= 0) {
            await emit(buffer.subarray(0, i));
            buffer = buffer.subarray(i + delimiter.length);
            await closePart();
            state = "after-delimiter";
            progressed = true;
          } else if (buffer.length > delimiter.length) {
            // Keep a tail that could be the start of the delimiter; the rest is content.
            const keep = delimiter.length - 1;
            await emit(buffer.subarray(0, buffer.length - keep));
            buffer = Buffer.from(buffer.subarray(buffer.length - keep));
          }
        }
      }
      if (state === "done") buffer = Buffer.alloc(0); // an epilogue is ignored, not kept
      if (value) releaseChunk(value, buffer); // its bytes are written or copied by now
      if (done) break;
    }
    if (state !== "done") throw new MultipartError("The multipart body ended before its closing boundary", "malformed");
    return entries;
  } catch (error) {
    reader.cancel().catch(() => {});
    const open = part as { sink: FileSink | null } | null;
    if (open?.sink) await open.sink.abort();
    // A request that fails while being read keeps none of its files.
    for (const [, value] of entries) if (isSpooledFile(value)) await unlink(value.path).catch(() => {});
    throw error;
  }
}

// The streaming multipart reader against bodies cut into chunks at every size, so that a boundary
// split across two chunks (anywhere inside it) is still found and no byte of a file is lost.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isSpooledFile, readMultipart, type SpooledFile } from "../../src/files/multipart.ts";

const limits = { fields: 1 << 20, file: 1 << 20, total: 1 << 21, files: 5 };

function streamOf(body: Uint8Array, chunk: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= body.length) return c.close();
      c.enqueue(body.slice(at, at + chunk));
      at += chunk;
    },
  });
}

function body(boundary: string, parts: { name: string; filename?: string; data: Uint8Array | string }[]): Uint8Array {
  const pieces: Buffer[] = [Buffer.from("preamble to ignore\r\n")];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ""}`;
    pieces.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
    );
    pieces.push(Buffer.from(p.data));
    pieces.push(Buffer.from("\r\n"));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\nepilogue`));
  return new Uint8Array(Buffer.concat(pieces));
}

describe("readMultipart", () => {
  // A file that contains near-boundaries: CRLF and dashes and most of the boundary text.
  const boundary = "----parleyB0undary";
  const file = Buffer.concat([
    Buffer.from("\r\n------parleyB0undar\r\n--"),
    Buffer.alloc(3000, 7),
    Buffer.from("\r\n----parleyB0und"),
  ]);
  const raw = body(boundary, [
    { name: "content", data: "hello\r\nworld" },
    { name: "attachments[]", filename: "a.bin", data: file },
    { name: "attachments[]", filename: "empty.txt", data: "" },
  ]);

  for (const size of [1, 2, 3, 7, 19, 20, 21, 64, 1000, raw.length]) {
    test(`chunks of ${size} bytes`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "parley-mp-"));
      const spooled: string[] = [];
      const entries = await readMultipart(streamOf(raw, size), boundary, limits, dir, (p) => spooled.push(p));
      expect(entries.map(([k, v]) => [k, isSpooledFile(v) ? v.filename : v])).toEqual([
        ["content", "hello\r\nworld"],
        ["attachments[]", "a.bin"],
        ["attachments[]", "empty.txt"],
      ]);
      const a = entries[1]![1] as SpooledFile;
      expect(a.size).toBe(file.length);
      expect(readFileSync(a.path).equals(file)).toBe(true);
      expect(a.sha256).toBe(new Bun.CryptoHasher("sha256").update(file).digest("hex"));
      expect(Buffer.from(a.head).equals(file.subarray(0, a.head.length))).toBe(true);
      expect((entries[2]![1] as SpooledFile).size).toBe(0);
      expect(spooled).toHaveLength(2);
    });
  }

  test("a file over its limit stops the read and leaves nothing spooled", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-mp-"));
    const big = body(boundary, [
      { name: "attachments[]", filename: "first.bin", data: "ok" },
      { name: "attachments[]", filename: "big.bin", data: new Uint8Array(5000) },
    ]);
    const read = readMultipart(streamOf(big, 512), boundary, { ...limits, file: 4096 }, dir, () => {});
    await expect(read).rejects.toThrow("The file big.bin is larger than 4096 bytes");
    expect(readdirSync(dir)).toEqual([]);
  });
});

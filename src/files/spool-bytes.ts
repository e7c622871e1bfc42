// Bytes already in memory (a mail's attached file) written to the spool as an upload would be, so
// they take the same path into the store as a multipart part: sniffed, sized, staged, committed.
import { join } from "node:path";
import { HEAD_BYTES, type SpooledFile } from "./multipart.ts";

export async function spoolBytes(
  dir: string,
  filename: string,
  bytes: Uint8Array,
  declaredType = "",
): Promise<SpooledFile> {
  const path = join(dir, `upload-${crypto.randomUUID()}.part`);
  await Bun.write(path, bytes);
  return {
    spooled: true,
    filename,
    declaredType,
    size: bytes.length,
    sha256: new Bun.CryptoHasher("sha256").update(bytes).digest("hex"),
    head: bytes.subarray(0, HEAD_BYTES),
    path,
  };
}

// Large uploads over a real socket come back byte for byte: multi-megabyte bodies arrive in many
// chunks, and the reader frees each chunk as soon as its bytes are written (upload-memory.ts), so a
// chunk freed too early, or a buffer the runtime reused, would show here as a changed file —
// sequentially on one kept-alive connection and 12 at once.
import { afterEach, describe, expect, test } from "bun:test";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";
import { servedEach } from "../helpers/served.ts";

const serve = servedEach(afterEach);
const sha = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

/** A file of `size` bytes no two of which repeat in a pattern a shifted chunk could hide. */
function fileOf(size: number, n: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  let x = 2463534242 + n;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 255;
  }
  return bytes;
}

describe("uploads over a real socket", () => {
  test("1–3 MB files, one after another and 12 at once, download byte for byte", async () => {
    const w = await world();
    const c = await newConversation(w);
    const served = serve(w.h);
    const upload = async (n: number) => {
      const bytes = fileOf(1024 * 1024 + ((n * 370_001) % (2 * 1024 * 1024)), n);
      const form = new FormData();
      form.append("content", `file ${n}`);
      form.append("attachments[]", new File([bytes], `f${n}.bin`));
      const r = await fetch(`${served.base}${w.base}/conversations/${c.id}/messages`, {
        method: "POST",
        headers: { api_access_token: w.a.adminToken },
        body: form,
      });
      const m = (await r.json()) as any;
      expect(r.status).toBe(200);
      const got = new Uint8Array(await (await fetch(m.attachments[0].data_url)).arrayBuffer());
      return [n, m.attachments[0].file_size, sha(got)] as const;
    };
    const want = (n: number) => {
      const bytes = fileOf(1024 * 1024 + ((n * 370_001) % (2 * 1024 * 1024)), n);
      return [n, bytes.length, sha(bytes)] as const;
    };
    for (let n = 0; n < 4; n++) expect(await upload(n)).toEqual(want(n));
    const together = Array.from({ length: 12 }, (_, i) => i + 10);
    expect(await Promise.all(together.map(upload))).toEqual(together.map(want));
  });
});

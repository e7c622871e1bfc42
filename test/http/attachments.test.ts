// Files on messages through the account API, on both file stores (a directory and an S3 server):
// upload real PNG/PDF/MP3 files as multipart attachments[], read them back byte for byte from
// data_url, and see them wherever the message is shown.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { PreparedFile } from "../../src/domain/attachments.service.ts";
import { newConversation, world, type World } from "../helpers/conversation-fixtures.ts";
import { download, mp3File, pdfFile, pngFile, postMultipart, type Part } from "../helpers/files.ts";
import { startS3, type S3Server } from "../helpers/s3.ts";

const file = (bytes: Uint8Array, filename: string, type?: string): Part => ({
  name: "attachments[]",
  value: { bytes, filename, ...(type ? { type } : {}) },
});

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3.stop();
});

function storedFiles(w: World): string[] {
  const dir = w.h.deps.config.files.dir;
  return readdirSync(dir)
    .filter((d) => /^[0-9a-f]{2}$/.test(d))
    .flatMap((d) => readdirSync(join(dir, d)));
}

for (const backend of ["disk", "s3"] as const) {
  describe(`attachments (${backend} store)`, () => {
    const make = () => world(backend === "s3" ? { env: s3.env } : {});

    test("a message of three real files and no text: records, bytes, list, conversation, webhook", async () => {
      const w = await make();
      const c = await newConversation(w);
      const png = pngFile(31, 17);
      const pdf = pdfFile();
      const mp3 = mp3File();
      const path = `${w.base}/conversations/${c.id}/messages`;
      const r = await postMultipart(
        w.h,
        path,
        [
          file(png, "shot.png", "image/png"),
          file(pdf, "invoice.pdf", "application/pdf"),
          file(mp3, "note.mp3", "audio/mpeg"),
        ],
        w.a.adminToken,
      );
      expect(r.status).toBe(200);
      expect(r.body.content).toBeNull();
      const [a, b, m] = r.body.attachments;
      expect([a.file_type, a.extension, a.width, a.height, a.file_size]).toEqual(["image", "png", 31, 17, png.length]);
      expect([b.file_type, b.extension, b.width, b.file_size]).toEqual(["file", "pdf", null, pdf.length]);
      expect([m.file_type, m.extension, m.file_size]).toEqual(["audio", "mp3", mp3.length]);
      expect(a.thumb_url).toBe(a.data_url);
      expect(b.thumb_url).toBe("");
      expect(a.message_id).toBe(r.body.id);
      expect(a.account_id).toBe(w.a.accountId);
      expect(a.data_url).toStartWith(`http://127.0.0.1:3000/files/${a.id}/shot.png?expires=`);

      for (const [att, bytes, type, inline] of [
        [a, png, "image/png", true],
        [b, pdf, "application/pdf", true],
        [m, mp3, "audio/mpeg", true],
      ] as const) {
        const got = await download(w.h, att.data_url);
        expect(got.status).toBe(200);
        expect(got.headers.get("content-type")).toBe(type);
        expect(got.headers.get("x-content-type-options")).toBe("nosniff");
        expect(got.headers.get("content-disposition")!.startsWith(inline ? "inline;" : "attachment;")).toBe(true);
        expect(Buffer.from(got.bytes).equals(Buffer.from(bytes))).toBe(true);
      }

      const list = await w.h.request("GET", path, { token: w.a.adminToken });
      expect(list.body.payload.at(-1).attachments.map((x: any) => x.id)).toEqual([a.id, b.id, m.id]);
      const shown = await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken });
      expect(shown.body.messages[0].attachments).toHaveLength(3);
      const files = await w.h.request("GET", `${w.base}/conversations/${c.id}/attachments`, { token: w.a.adminToken });
      expect(files.body.meta.total_count).toBe(3);
      expect(files.body.payload.map((x: any) => x.id)).toEqual([m.id, b.id, a.id]);
      expect(files.body.payload[0].created_at).toBe(r.body.created_at);

      const created = w.h
        .events()
        .filter((e) => e.kind === "message_created")
        .at(-1)!;
      const hooked = (created.payload as any).attachments;
      expect(hooked.map((x: any) => [x.id, x.file_type, x.data_url])).toEqual(
        [a, b, m].map((x) => [x.id, x.file_type, x.data_url]),
      );
    });

    test("text with a file as the SDKs send it (content and message_type as form fields)", async () => {
      const w = await make();
      const c = await newConversation(w);
      const r = await postMultipart(
        w.h,
        `${w.base}/conversations/${c.id}/messages`,
        [
          { name: "content", value: "Here is the photo" },
          { name: "message_type", value: "incoming" },
          { name: "private", value: "false" },
          file(pngFile(4, 4), "p.png"),
        ],
        w.a.adminToken,
      );
      expect(r.status).toBe(200);
      expect([r.body.content, r.body.message_type, r.body.attachments[0].file_type]).toEqual([
        "Here is the photo",
        0,
        "image",
      ]);
    });

    test("Range requests: a slice (206), the tail, and past the end (416)", async () => {
      const w = await make();
      const c = await newConversation(w);
      const mp3 = mp3File(60);
      const r = await postMultipart(
        w.h,
        `${w.base}/conversations/${c.id}/messages`,
        [file(mp3, "voice.mp3")],
        w.a.adminToken,
      );
      const url = r.body.attachments[0].data_url;
      const part = await download(w.h, url, { range: "bytes=100-199" });
      expect(part.status).toBe(206);
      expect(part.headers.get("content-range")).toBe(`bytes 100-199/${mp3.length}`);
      expect(Buffer.from(part.bytes).equals(Buffer.from(mp3.subarray(100, 200)))).toBe(true);
      const tail = await download(w.h, url, { range: "bytes=-10" });
      expect(Buffer.from(tail.bytes).equals(Buffer.from(mp3.subarray(mp3.length - 10)))).toBe(true);
      const past = await download(w.h, url, { range: `bytes=${mp3.length + 5}-` });
      expect(past.status).toBe(416);
      expect(past.headers.get("content-range")).toBe(`bytes */${mp3.length}`);
    });

    test("links: a forged or expired signature is 403; a fresh rendering gives a fresh link", async () => {
      const w = await make();
      const c = await newConversation(w);
      const r = await postMultipart(
        w.h,
        `${w.base}/conversations/${c.id}/messages`,
        [file(pdfFile(), "a.pdf")],
        w.a.adminToken,
      );
      const url = new URL(r.body.attachments[0].data_url);
      const forged = new URL(url);
      forged.searchParams.set("signature", "A".repeat(32));
      expect((await download(w.h, forged.toString())).status).toBe(403);
      const otherId = new URL(url);
      otherId.pathname = otherId.pathname.replace(/\/files\/\d+\//, "/files/999/");
      expect((await download(w.h, otherId.toString())).status).toBe(403);
      w.h.clock.advance(9 * 24 * 3600 * 1000);
      expect((await download(w.h, url.toString())).status).toBe(403);
      const again = await w.h.request("GET", `${w.base}/conversations/${c.id}/messages`, { token: w.a.adminToken });
      expect((await download(w.h, again.body.payload.at(-1).attachments[0].data_url)).status).toBe(200);
    });

    test("deleting the message removes its attachments and their files", async () => {
      const w = await make();
      const c = await newConversation(w);
      const r = await postMultipart(
        w.h,
        `${w.base}/conversations/${c.id}/messages`,
        [{ name: "content", value: "x" }, file(pngFile(9, 9, 3), "x.png")],
        w.a.adminToken,
      );
      const url = r.body.attachments[0].data_url;
      const del = await w.h.request("DELETE", `${w.base}/conversations/${c.id}/messages/${r.body.id}`, {
        token: w.a.adminToken,
      });
      expect(del.status).toBe(200);
      expect(del.body.attachments).toBeUndefined();
      expect((await download(w.h, url)).status).toBe(404);
      const files = await w.h.request("GET", `${w.base}/conversations/${c.id}/attachments`, { token: w.a.adminToken });
      expect(files.body.meta.total_count).toBe(0);
      await w.h.deps.services.attachments.released();
      if (backend === "disk") expect(storedFiles(w)).toEqual([]);
    });
  });
}

describe("attachments (disk store specifics)", () => {
  test("the same file twice is stored once and removed with its last message", async () => {
    const w = await world();
    const c = await newConversation(w);
    const png = pngFile(5, 5, 9);
    const path = `${w.base}/conversations/${c.id}/messages`;
    const one = await postMultipart(w.h, path, [file(png, "a.png")], w.a.adminToken);
    const two = await postMultipart(w.h, path, [file(png, "b.png")], w.a.adminToken);
    expect(storedFiles(w)).toHaveLength(1);
    await w.h.request("DELETE", `${path}/${one.body.id}`, { token: w.a.adminToken });
    await w.h.deps.services.attachments.released();
    expect(storedFiles(w)).toHaveLength(1);
    expect((await download(w.h, two.body.attachments[0].data_url)).status).toBe(200);
    await w.h.request("DELETE", `${path}/${two.body.id}`, { token: w.a.adminToken });
    await w.h.deps.services.attachments.released();
    expect(storedFiles(w)).toEqual([]);
  });

  test("a file an awaited write is attaching stays when another message with it is deleted meanwhile", async () => {
    const w = await world();
    const c = await newConversation(w);
    const path = `${w.base}/conversations/${c.id}/messages`;
    const png = pngFile(6, 6, 2);
    const first = await postMultipart(w.h, path, [file(png, "a.png")], w.a.adminToken);
    const { storage_key } = w.h.deps.db
      .prepare("SELECT storage_key FROM attachments WHERE message_id = ?")
      .get(first.body.id) as { storage_key: string };
    // A message with the same bytes whose body has put the file in place and not yet committed.
    const attaching = { staged: { key: storage_key, size: png.length, spoolPath: "" } } as PreparedFile;
    const done = w.h.deps.services.attachments.holding([attaching]);
    await w.h.request("DELETE", `${path}/${first.body.id}`, { token: w.a.adminToken });
    await w.h.deps.services.attachments.released();
    expect(storedFiles(w)).toEqual([storage_key]);
    done(); // that body rolled back: the file is nobody's, and the sweep takes it a day later
    expect(await w.h.deps.services.attachments.sweep(Date.now() + 2 * 24 * 3600 * 1000)).toBe(1);
    expect(storedFiles(w)).toEqual([]);
  });

  test("deleting the contact removes the files of its conversations", async () => {
    const w = await world();
    const c = await newConversation(w);
    await postMultipart(
      w.h,
      `${w.base}/conversations/${c.id}/messages`,
      [file(pdfFile("bye"), "x.pdf")],
      w.a.adminToken,
    );
    expect(storedFiles(w)).toHaveLength(1);
    expect((await w.h.request("DELETE", `${w.base}/contacts/${w.contactId}`, { token: w.a.adminToken })).status).toBe(
      200,
    );
    await w.h.deps.services.attachments.released();
    expect(storedFiles(w)).toEqual([]);
  });

  test("the sweep removes files no row refers to once they are a day old, and no others", async () => {
    const w = await world();
    const c = await newConversation(w);
    await postMultipart(
      w.h,
      `${w.base}/conversations/${c.id}/messages`,
      [file(pngFile(2, 2), "kept.png")],
      w.a.adminToken,
    );
    const dir = w.h.deps.config.files.dir;
    const orphan = "ab".padEnd(64, "0");
    await Bun.write(join(dir, "ab", orphan), "left by a crash");
    await Bun.write(join(dir, "tmp", "upload-x.part"), "half an upload");
    expect(await w.h.deps.services.attachments.sweep(Date.now())).toBe(0);
    expect(await w.h.deps.services.attachments.sweep(Date.now() + 2 * 24 * 3600 * 1000)).toBe(2);
    expect(existsSync(join(dir, "ab", orphan))).toBe(false);
    expect(storedFiles(w)).toHaveLength(1);
  });
});

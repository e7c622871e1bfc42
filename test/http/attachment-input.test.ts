// Bad uploads: too large, malformed, not files at all, dangerous types. Each gets a clear error
// in the envelope and changes nothing; files that could act as a page are never served as one.
import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { newConversation, world, type World } from "../helpers/conversation-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { download, pngFile, postMultipart, type Part } from "../helpers/files.ts";

const file = (bytes: Uint8Array | string, filename: string, type?: string): Part => ({
  name: "attachments[]",
  value: {
    bytes: typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes,
    filename,
    ...(type ? { type } : {}),
  },
});

const messageCount = (w: World) => (w.h.deps.db.query("SELECT count(*) AS n FROM messages").get() as { n: number }).n;
const spooled = (w: World) => readdirSync(join(w.h.deps.config.files.dir, "tmp"));

test("a file over the limit is a 413 naming the limit; no message, no file left behind", async () => {
  const w = await world({ env: { PARLEY_MAX_FILE_BYTES: "4096" } });
  const c = await newConversation(w);
  const before = messageCount(w);
  const r = await postMultipart(
    w.h,
    `${w.base}/conversations/${c.id}/messages`,
    [{ name: "content", value: "big" }, file(new Uint8Array(10_000), "big.bin")],
    w.a.adminToken,
  );
  expect(r.status).toBe(413);
  expect(r.body.errors[0]).toEqual({
    field: "attachments",
    message: "The file big.bin is larger than 4096 bytes",
    code: "too_large",
  });
  expect(messageCount(w)).toBe(before);
  expect(spooled(w)).toEqual([]);
});

test("too many files, or too many bytes together, are 413s", async () => {
  const w = await world({ env: { PARLEY_MAX_FILES: "2", PARLEY_MAX_UPLOAD_BYTES: "6000" } });
  const c = await newConversation(w);
  const path = `${w.base}/conversations/${c.id}/messages`;
  const three = await postMultipart(
    w.h,
    path,
    [file("a", "1.txt"), file("b", "2.txt"), file("c", "3.txt")],
    w.a.adminToken,
  );
  expect(three.status).toBe(413);
  expect(three.body.errors[0].message).toBe("At most 2 files per request");
  const heavy = await postMultipart(
    w.h,
    path,
    [file(new Uint8Array(4000), "1.bin"), file(new Uint8Array(4000), "2.bin")],
    w.a.adminToken,
  );
  expect(heavy.status).toBe(413);
  expect(heavy.body.errors[0].message).toBe("The request's files together is larger than 6000 bytes");
  expect(spooled(w)).toEqual([]);
});

test("a malformed or truncated multipart body is a 400, never a 500", async () => {
  const w = await world();
  const c = await newConversation(w);
  const path = `http://localhost${w.base}/conversations/${c.id}/messages`;
  const before = messageCount(w);
  const bodies = [
    '--b\r\nContent-Disposition: form-data; name="content"\r\n\r\nhello', // no closing boundary
    "--b\r\nContent-Type: text/plain\r\n\r\nno name\r\n--b--\r\n", // a part without a name
    '--b\r\nContent-Disposition: form-data; name="attachments[]"; filename="x.png"\r\n\r\n\x89PNG', // truncated file
  ];
  for (const body of bodies) {
    const res = await w.h.app.handle(
      new Request(path, {
        method: "POST",
        body,
        headers: { api_access_token: w.a.adminToken, "content-type": "multipart/form-data; boundary=b" },
      }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].code).toBe("malformed");
  }
  const noBoundary = await w.h.app.handle(
    new Request(path, {
      method: "POST",
      body: "x",
      headers: { api_access_token: w.a.adminToken, "content-type": "multipart/form-data" },
    }),
  );
  expect(noBoundary.status).toBe(400);
  expect(messageCount(w)).toBe(before);
  expect(spooled(w)).toEqual([]);
});

test("attachments in JSON (base64, links, direct-upload ids) are refused with 422, as Chatwoot only takes files", async () => {
  const w = await world();
  const c = await newConversation(w);
  const before = messageCount(w);
  for (const attachments of [
    [{ content: "aGVsbG8=", encoding: "base64", filename: "a.txt" }],
    ["eyJfcmFpbHMiOnt9fQ==--signed-blob-id"],
    "https://example.com/a.png",
  ]) {
    const r = await w.h.request("POST", `${w.base}/conversations/${c.id}/messages`, {
      token: w.a.adminToken,
      body: { content: "x", attachments },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].field).toBe("attachments[0]");
    expect(r.body.errors[0].message).toContain("multipart/form-data");
  }
  expect(messageCount(w)).toBe(before);
});

test("a blank message with no file is still refused", async () => {
  const w = await world();
  const c = await newConversation(w);
  const r = await postMultipart(
    w.h,
    `${w.base}/conversations/${c.id}/messages`,
    [{ name: "content", value: " " }],
    w.a.adminToken,
  );
  expect(r.status).toBe(422);
  expect(r.body.errors[0]).toMatchObject({ field: "content", message: "can't be blank" });
});

test("HTML and SVG are never served as pages, whatever their name; the name's type is not trusted for images", async () => {
  const w = await world();
  const c = await newConversation(w);
  const r = await postMultipart(
    w.h,
    `${w.base}/conversations/${c.id}/messages`,
    [
      file("<html><script>alert(document.cookie)</script></html>", "photo.png", "image/png"),
      file('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>', "logo.svg", "image/svg+xml"),
      file("plain words", "notes.txt", "text/plain"),
    ],
    w.a.adminToken,
  );
  expect(r.status).toBe(200);
  expect(r.body.attachments.map((a: any) => a.file_type)).toEqual(["file", "file", "file"]);
  for (const a of r.body.attachments.slice(0, 2)) {
    const got = await download(w.h, a.data_url);
    expect(got.headers.get("content-type")).toBe("application/octet-stream");
    expect(got.headers.get("content-disposition")!.startsWith("attachment;")).toBe(true);
    expect(got.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
  }
  const txt = await download(w.h, r.body.attachments[2].data_url);
  expect([txt.headers.get("content-type"), txt.headers.get("content-disposition")!.split(";")[0]]).toEqual([
    "text/plain",
    "attachment",
  ]);
});

test("tenants: another account's token cannot list or add files; an Idempotency-Key retry stores one message", async () => {
  const w = await world();
  const c = await newConversation(w);
  const other = await makeAccount(w.h, "Other");
  const list = await w.h.request("GET", `${w.base}/conversations/${c.id}/attachments`, { token: other.adminToken });
  expect(list.status).toBe(401);
  const post = await postMultipart(
    w.h,
    `${w.base}/conversations/${c.id}/messages`,
    [file(pngFile(2, 2), "a.png")],
    other.adminToken,
  );
  expect(post.status).toBe(401);
  const ownList = await w.h.request("GET", `/api/v1/accounts/${other.accountId}/conversations/${c.id}/attachments`, {
    token: other.adminToken,
  });
  expect(ownList.status).toBe(404);
  const before = messageCount(w);
  const key = { "idempotency-key": "upload-1" };
  const first = await postMultipart(
    w.h,
    `${w.base}/conversations/${c.id}/messages`,
    [file(pngFile(3, 3), "a.png")],
    w.a.adminToken,
    key,
  );
  const again = await postMultipart(
    w.h,
    `${w.base}/conversations/${c.id}/messages`,
    [file(pngFile(3, 3), "a.png")],
    w.a.adminToken,
    key,
  );
  expect(again.body.id).toBe(first.body.id);
  expect(again.body.attachments[0].id).toBe(first.body.attachments[0].id);
  expect(messageCount(w)).toBe(before + 1);
});

test("a multipart body without any credential is refused before its files are spooled", async () => {
  const w = await world();
  const c = await newConversation(w);
  const r = await postMultipart(w.h, `${w.base}/conversations/${c.id}/messages`, [
    file(new Uint8Array(50_000), "x.bin"),
  ]);
  expect(r.status).toBe(401);
  expect(spooled(w)).toEqual([]);
  expect(
    (
      await postMultipart(
        w.h,
        `${w.base}/conversations/${c.id}/messages`,
        [file(pngFile(2, 2), "x.png")],
        w.a.adminToken,
      )
    ).status,
  ).toBe(200);
});

// Files as the real clients send them. Evolution API sends WhatsApp media through
// @figuro/chatwoot-sdk's messages.create, which turns `attachments: [{content, encoding, filename}]`
// into multipart attachments[] parts over HTTP; a contact sends a file through the public API; the
// agents' dashboard receives it live over /cable. Each reads the file back from data_url.
import { afterEach, describe, expect, test } from "bun:test";
import ChatwootClient from "@figuro/chatwoot-sdk";
import { CableClient } from "../helpers/cable.ts";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";
import { mp3File, pdfFile, pngFile, postMultipart } from "../helpers/files.ts";
import { newContact, openConversation, publicWorld, messagesPath } from "../helpers/public-fixtures.ts";
import { servedEach } from "../helpers/served.ts";

const serve = servedEach(afterEach);

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe("Evolution API's media messages through @figuro/chatwoot-sdk", () => {
  test("an image with a caption, a voice note and a document: each comes back byte for byte over HTTP", async () => {
    const w = await world();
    const c = await newConversation(w);
    const served = serve(w.h);
    const client = new ChatwootClient({
      config: { basePath: served.base, token: w.a.adminToken, with_credentials: false, credentials: "omit" },
    });
    const png = pngFile(64, 48, 5);
    const mp3 = mp3File(30);
    const pdf = pdfFile("Order 7");
    const photo: any = await client.messages.create({
      accountId: w.a.accountId,
      conversationId: c.id,
      data: {
        content: "Look at this",
        message_type: "incoming",
        attachments: [{ content: b64(png), encoding: "base64", filename: "IMG-2026.png" }],
      } as any,
    });
    expect([
      photo.content,
      photo.message_type,
      photo.attachments[0].file_type,
      photo.attachments[0].width,
      photo.attachments[0].height,
    ]).toEqual(["Look at this", 0, "image", 64, 48]);
    const voice: any = await client.messages.create({
      accountId: w.a.accountId,
      conversationId: c.id,
      data: {
        message_type: "incoming",
        attachments: [{ content: b64(mp3), encoding: "base64", filename: "audio.mp3" }],
      } as any,
    });
    expect([voice.content, voice.attachments[0].file_type, voice.attachments[0].file_size]).toEqual([
      null,
      "audio",
      mp3.length,
    ]);
    const doc: any = await client.messages.create({
      accountId: w.a.accountId,
      conversationId: c.id,
      data: {
        content: "the invoice",
        message_type: "outgoing",
        attachments: [{ content: b64(pdf), encoding: "base64", filename: "invoice.pdf" }],
      } as any,
    });
    expect(doc.attachments[0].extension).toBe("pdf");

    for (const [att, bytes] of [
      [photo.attachments[0], png],
      [voice.attachments[0], mp3],
      [doc.attachments[0], pdf],
    ] as const) {
      expect(att.data_url).toStartWith(`${served.base}/files/`);
      const res = await fetch(att.data_url);
      expect(res.status).toBe(200);
      expect(same(new Uint8Array(await res.arrayBuffer()), bytes)).toBe(true);
    }
    const listed: any = await client.messages.list({ accountId: w.a.accountId, conversationId: c.id });
    expect(listed.payload.filter((m: any) => m.attachments).map((m: any) => m.attachments[0].file_type)).toEqual([
      "image",
      "audio",
      "file",
    ]);
  });
});

describe("a contact's file through the public API, live on the agent's socket", () => {
  test("the public create takes attachments[]; the dashboard's message.created carries the file", async () => {
    const w = await publicWorld();
    const contact = await newContact(w);
    const conversation = await openConversation(w, contact);
    const served = serve(w.h);
    const socket = await CableClient.connect(
      `ws://127.0.0.1:${new URL(served.base).port}/cable?api_access_token=${w.a.adminToken}`,
    );
    expect((await socket.subscribe({ account_id: w.a.accountId })).reply.type).toBe("confirm_subscription");
    const png = pngFile(12, 10, 1);
    const r = await postMultipart(w.h, messagesPath(w, contact, conversation.id), [
      { name: "content", value: "my screenshot" },
      { name: "attachments[]", value: { bytes: png, filename: "screen.png" } },
    ]);
    expect(r.status).toBe(200);
    expect([r.body.message_type, r.body.attachments[0].file_type, r.body.attachments[0].width]).toEqual([
      0,
      "image",
      12,
    ]);
    const live = await socket.until((f) => f.message?.event === "message.created");
    const att = live.message.data.attachments[0];
    expect([att.id, att.file_type, att.width, att.height]).toEqual([r.body.attachments[0].id, "image", 12, 10]);
    const res = await fetch(att.data_url);
    expect(same(new Uint8Array(await res.arrayBuffer()), png)).toBe(true);
    const seen = await w.h.request("GET", messagesPath(w, contact, conversation.id));
    expect(seen.body.at(-1).attachments[0].id).toBe(att.id);
    socket.close();
  });
});

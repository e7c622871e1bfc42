// Files in the agents' app: an agent drops an image on the reply box, sends it and sees its
// thumbnail (loaded from the server, so the pixels are the upload's); a file the contact sent
// through the API shows in the thread with its player or chip; a failed upload keeps the draft.
import { describe, expect, test } from "bun:test";
import { mp3File, pngFile } from "../helpers/files.ts";
import { browserSuite, haveChromium, type WebServer } from "./browser.ts";
import { accountApi, seedConversation } from "./seed.ts";

if (!haveChromium)
  console.warn("test/e2e/attachments.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

let server: WebServer;

async function contactSends(conversationId: number, bytes: Uint8Array, filename: string) {
  const form = new FormData();
  form.append("message_type", "incoming");
  form.append("attachments[]", new File([new Uint8Array(bytes)], filename));
  const r = await fetch(
    `${server.base}/api/v1/accounts/${server.first.account_id}/conversations/${conversationId}/messages`,
    {
      method: "POST",
      headers: { api_access_token: server.first.api_access_token },
      body: form,
    },
  );
  expect(r.status).toBe(200);
}

describe.skipIf(!haveChromium)("attachments in chromium", () => {
  const { openPage, signIn } = browserSuite({
    env: { PARLEY_MAX_FILE_BYTES: "65536" },
    setup: async (s) => void (server = s),
  });

  test("drop an image on the reply box, send it, see the thumbnail; the contact's voice note has a player", async () => {
    const admin = accountApi(server.base, server.first.account_id, server.first.api_access_token);
    const inbox = (await admin.post("/inboxes", { name: "Files API", channel: { type: "api" } })).id;
    const c = await seedConversation(admin, inbox, { name: "Fiona Files" }, "I will send the recording");
    await contactSends(c.id, mp3File(50), "recording.mp3");
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/conversations/${c.id}`);
    await page.locator(".attachment.audio audio").waitFor();
    await page
      .getByRole("link", { name: `recording.mp3 (audio, ${Math.round(mp3File(50).length / 1024)} KB)` })
      .waitFor();

    const png = Array.from(pngFile(40, 30, 7));
    const dropped = await page.evaluateHandle((bytes) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], "screenshot.png", { type: "image/png" }));
      return dt;
    }, png);
    await page.dispatchEvent("form.reply-box", "drop", { dataTransfer: dropped });
    await page.getByRole("list", { name: "Files to send" }).getByText("screenshot.png").waitFor();
    await page.getByLabel("Reply to Fiona Files").fill("Here is what I see");
    await page.getByRole("button", { name: "Send" }).click();
    const thumb = page.locator(".message.outgoing .attachment.image img");
    await thumb.waitFor();
    await page.waitForFunction(
      () =>
        (document.querySelector(".message.outgoing .attachment.image img") as HTMLImageElement | null)?.naturalWidth ===
        40,
    );
    expect(await page.getByRole("list", { name: "Files to send" }).count()).toBe(0);
    const stored = await admin.get(`/conversations/${c.id}/attachments`);
    expect(stored.payload.map((a: any) => [a.file_type, a.width, a.height])).toEqual([
      ["image", 40, 30],
      ["audio", null, null],
    ]);
  }, 60_000);

  test("an upload the server refuses keeps the text and the files, and says why", async () => {
    const admin = accountApi(server.base, server.first.account_id, server.first.api_access_token);
    const inbox = (await admin.post("/inboxes", { name: "Big Files", channel: { type: "api" } })).id;
    const c = await seedConversation(admin, inbox, { name: "Gus Big" }, "Send me the video");
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/conversations/${c.id}`);
    await page.getByLabel("Reply to Gus Big").fill("the video");
    // Chooses a file through the paperclip's file input, as a click would.
    await page
      .locator('form.reply-box input[type="file"]')
      .setInputFiles({ name: "huge.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(70_000) });
    await page.getByRole("button", { name: "Send" }).click();
    await page
      .getByRole("alert")
      .getByText(/larger than 65536 bytes/)
      .waitFor();
    expect(await page.getByLabel("Reply to Gus Big").inputValue()).toBe("the video");
    await page.getByRole("list", { name: "Files to send" }).getByText("huge.bin").waitFor();
  }, 60_000);
});

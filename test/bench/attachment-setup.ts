// The attachment scenarios: a message with a 16 KB file uploaded as multipart (the Evolution API /
// mobile app way), and the file downloaded from its signed data_url. The setup sends one such
// message over HTTP on the running server to learn a data_url to download (links expire after a
// day, longer than any bench run).
import type { AttachmentInfo } from "./scenarios.ts";

const BOUNDARY = "----parley-bench-7d1f2a";
/** 16 KB of text: uploads of the same bytes are stored once (content-addressed), as real re-sends are. */
const FILE = "Order 4711, invoice lines\n".repeat(630).slice(0, 16 * 1024);

export function multipartMessage(content: string): { body: string; contentType: string } {
  const part = (headers: string, value: string) => `--${BOUNDARY}\r\n${headers}\r\n\r\n${value}\r\n`;
  const body =
    part('Content-Disposition: form-data; name="content"', content) +
    part('Content-Disposition: form-data; name="message_type"', "incoming") +
    part(
      'Content-Disposition: form-data; name="attachments[]"; filename="invoice.txt"\r\nContent-Type: text/plain',
      FILE,
    ) +
    `--${BOUNDARY}--\r\n`;
  return { body, contentType: `multipart/form-data; boundary=${BOUNDARY}` };
}

export async function attachmentSetup(
  origin: string,
  s: { account_id: number; api_access_token: string },
  displayId: number,
): Promise<AttachmentInfo> {
  const { body, contentType } = multipartMessage("Here is the invoice");
  const r = await fetch(`${origin}/api/v1/accounts/${s.account_id}/conversations/${displayId}/messages`, {
    method: "POST",
    headers: { api_access_token: s.api_access_token, "content-type": contentType },
    body,
  });
  const message = (await r.json()) as { attachments?: { data_url: string }[] };
  const url = message.attachments?.[0]?.data_url;
  if (r.status !== 200 || !url) throw new Error(`attachment setup: ${r.status} ${JSON.stringify(message)}`);
  const link = new URL(url);
  return { downloadPath: `${link.pathname}${link.search}` };
}

// Puts mail into the Dovecot test mailbox the way a mail server delivers it: IMAP APPEND.
import { ImapFlow } from "imapflow";
import type { Dovecot } from "./dovecot.ts";

export interface MailSpec {
  from?: string;
  to?: string;
  subject?: string;
  messageId?: string;
  inReplyTo?: string;
  references?: string;
  headers?: string[];
  body?: string;
}

export function rawMail(m: MailSpec): string {
  return [
    `From: ${m.from ?? '"Carla Diaz" <carla@example.com>'}`,
    `To: ${m.to ?? "support@acme.test"}`,
    `Subject: ${m.subject ?? "My order"}`,
    `Message-ID: ${m.messageId ?? `<${crypto.randomUUID()}@example.com>`}`,
    ...(m.inReplyTo ? [`In-Reply-To: ${m.inReplyTo}`] : []),
    ...(m.references ? [`References: ${m.references}`] : []),
    ...(m.headers ?? []),
    "Content-Type: text/plain; charset=utf-8",
    "",
    m.body ?? "Where is my order?",
    "",
  ].join("\r\n");
}

/** Delivers into `folder` (created if missing): each test reads its own folder of the one mailbox. */
export async function deliver(d: Dovecot, folder: string, ...mails: (MailSpec | string)[]): Promise<void> {
  const client = new ImapFlow({
    host: d.host,
    port: d.port,
    secure: false,
    auth: { user: d.user, pass: d.password },
    logger: false,
  });
  await client.connect();
  try {
    const list = await client.list();
    if (!list.some((b) => b.path === folder)) await client.mailboxCreate(folder);
    for (const m of mails) await client.append(folder, typeof m === "string" ? m : rawMail(m));
  } finally {
    await client.logout();
  }
}

// The mail an agent's reply becomes: From "Agent via Business" at the inbox's address, the
// customer as recipient, the subject of the thread with "Re:", the threading headers (the reply's
// own Message-ID, In-Reply-To the customer's last mail, References the thread's ids) and a plain
// text part. Pure: the sender (src/mail/smtp-sender.ts) gathers the data and sends it.
import type Mail from "nodemailer/lib/mailer";

export interface ReplyData {
  headerId: string;
  inboxEmail: string;
  /** The business as the inbox names it (business_name, else the inbox name). */
  businessName: string;
  /** The agent who wrote it; null for automation and bots (the business alone is named). */
  senderName: string | null;
  to: string;
  cc: string[];
  subject: string;
  /** The customer's Message-IDs and ours in this conversation, oldest first. */
  thread: string[];
  /** The customer's newest Message-ID, answered by this reply. */
  inReplyTo: string | null;
  text: string;
  /** A reply+<uuid>@ address when the inbox's mailbox takes plus addressing; else none. */
  replyTo: string | null;
  files: { filename: string; contentType: string; content: Buffer }[];
}

const MAX_REFERENCES = 20;

export function replySubject(subject: string | null, fallback: string): string {
  const s = (subject ?? "").trim();
  if (s === "") return fallback;
  return /^(re|aw|sv|res)\s*:/i.test(s) ? s : `Re: ${s}`;
}

export function composeReply(r: ReplyData): Mail.Options {
  const name = r.senderName ? `${r.senderName} via ${r.businessName}` : r.businessName;
  // The first id (the thread's root) and the newest ones: RFC 5322 suggests keeping both ends.
  const refs = r.thread.length > MAX_REFERENCES ? [r.thread[0]!, ...r.thread.slice(-(MAX_REFERENCES - 1))] : r.thread;
  return {
    from: { name, address: r.inboxEmail },
    to: r.to,
    ...(r.cc.length ? { cc: r.cc } : {}),
    ...(r.replyTo ? { replyTo: r.replyTo } : {}),
    subject: r.subject,
    messageId: r.headerId,
    ...(r.inReplyTo ? { inReplyTo: r.inReplyTo } : {}),
    ...(refs.length ? { references: refs } : {}),
    text: r.text,
    attachments: r.files.map((f) => ({ filename: f.filename, contentType: f.contentType, content: f.content })),
    headers: { "Auto-Submitted": "no" },
  };
}

// A mail as the email inbox files it (src/mail/parse-mail.ts reads it from the raw bytes).

export interface MailAddress {
  name: string;
  address: string;
}

export interface IncomingMail {
  /** With angle brackets, as headers carry it; a mail without one gets a stand-in from its bytes. */
  messageId: string;
  inReplyTo: string[];
  references: string[];
  from: MailAddress | null;
  to: MailAddress[];
  cc: MailAddress[];
  subject: string;
  /** The new text (quoted history removed) and the history, for the thread. */
  reply: string;
  quoted: string | null;
  html: string | null;
  /** Null for mail people wrote; else why it is a machine's (auto_reply, bounce, bulk). */
  automated: "auto_reply" | "bounce" | "bulk" | null;
  files: { filename: string; bytes: Uint8Array }[];
}

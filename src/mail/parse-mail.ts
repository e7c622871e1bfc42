// Reads a raw mail (RFC 5322 bytes as fetched over IMAP) into what filing needs, with mailparser:
// addresses, threading headers, the text split from its quoted history, sanitized HTML, files, and
// whether a machine sent it (auto-replies, bounces, bulk mail), which must not open conversations.
import { type AddressObject, type ParsedMail, simpleParser } from "mailparser";
import type { IncomingMail, MailAddress } from "../domain/incoming-mail.ts";
import { withoutNul } from "../lib/nul.ts";
import { splitQuoted } from "./quoted.ts";
import { sanitizeHtml } from "./sanitize-html.ts";

const IDS = /<[^<>\s]+>/g;

function ids(value: string | string[] | undefined): string[] {
  const text = withoutNul(Array.isArray(value) ? value.join(" ") : (value ?? ""));
  return [...text.matchAll(IDS)].map((m) => m[0].toLowerCase());
}

function addresses(value: AddressObject | AddressObject[] | undefined): MailAddress[] {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list
    .flatMap((a) => a.value)
    .flatMap((a) => (a.group ? a.group : [a]))
    .filter((a) => typeof a.address === "string" && a.address.includes("@"))
    .map((a) => ({ name: withoutNul(a.name ?? "").trim(), address: withoutNul(a.address!).trim().toLowerCase() }));
}

function header(mail: ParsedMail, name: string): string {
  const v = mail.headers.get(name);
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v.toLowerCase();
  if (typeof v === "object" && "value" in v) return String((v as { value: unknown }).value).toLowerCase();
  return String(v).toLowerCase();
}

/** RFC 3834 and the usual vendor headers; DSNs by their content type and sender. */
function automatedKind(mail: ParsedMail, from: MailAddress | null): IncomingMail["automated"] {
  const contentType = header(mail, "content-type");
  if (contentType.includes("multipart/report") || /^(mailer-daemon|postmaster)@/.test(from?.address ?? ""))
    return "bounce";
  const auto = header(mail, "auto-submitted");
  if ((auto && auto !== "no") || mail.headers.has("x-autoreply") || mail.headers.has("x-autorespond"))
    return "auto_reply";
  const precedence = header(mail, "precedence");
  if (["bulk", "junk", "list", "auto_reply"].includes(precedence))
    return precedence === "auto_reply" ? "auto_reply" : "bulk";
  // mailparser folds List-* headers into one structured "list" header: ask the raw lines.
  if (mail.headerLines.some((h) => h.key === "list-id" || h.key === "list-unsubscribe")) return "bulk";
  return null;
}

export async function parseMail(source: Uint8Array): Promise<IncomingMail> {
  const mail = await simpleParser(Buffer.from(source), { skipImageLinks: true, skipTextToHtml: true });
  const from = addresses(mail.from)[0] ?? null;
  // A mail may carry NUL characters (a broken client, a hostile sender): every text below drops them.
  const text = withoutNul(mail.text ?? "");
  const { reply, quoted } = splitQuoted(text);
  const digest = new Bun.CryptoHasher("sha256").update(source).digest("hex").slice(0, 32);
  return {
    messageId: ids(mail.messageId)[0] ?? `<no-message-id-${digest}@parley.invalid>`,
    inReplyTo: ids(mail.inReplyTo),
    references: ids(mail.references),
    from,
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    subject: withoutNul(mail.subject ?? "").trim(),
    reply,
    quoted,
    html: typeof mail.html === "string" && mail.html !== "" ? await sanitizeHtml(withoutNul(mail.html)) : null,
    automated: automatedKind(mail, from),
    files: mail.attachments
      .filter((a) => a.content.length > 0)
      .map((a, i) => ({
        filename: withoutNul(a.filename ?? "") || `attachment-${i + 1}`,
        bytes: new Uint8Array(a.content),
      })),
  };
}

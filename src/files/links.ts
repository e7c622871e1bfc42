// Attachment links: `<public url>/files/<id>/<name>?expires=…&signature=…`. The signature (HMAC of
// id and expiry with a key only the server knows) is the permission, so a link works in an <img>,
// in a WhatsApp bridge or in a mail client without any token in the URL, and stops working when it
// expires. Expiry is rounded up to a whole day and lies 7 to 8 days ahead: long enough for a webhook
// that is retried for a day, and every rendering of a message within a day gives the same link
// (caches and tests see stable URLs).
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Clock } from "../lib/clock.ts";

const DAY = 24 * 60 * 60;
const VALID_DAYS = 7;
/** Signatures kept for reuse: a page of 25 conversations signs ~50 links, each valid all day. */
const SIGNATURES_KEPT = 4096;

export interface LinkTarget {
  id: number;
  filename: string;
}

export class FileLinks {
  private base: string;
  /**
   * Each attachment's signature for today's expiry: a link is the same all day, and computing an
   * HMAC was ~3 % of a conversation list page. Emptied whole when full (the next page refills it)
   * and replaced when the day, and so the expiry, changes.
   */
  private readonly signed = new Map<number, { expires: number; signature: string }>();

  constructor(
    publicUrl: string,
    private readonly key: string,
    private readonly clock: Clock,
  ) {
    this.base = publicUrl.replace(/\/+$/, "");
  }

  /** The address links start with (no trailing slash). */
  get publicUrl(): string {
    return this.base;
  }

  /** The address links start with, once the server knows it (listening on port 0, PARLEY_PUBLIC_URL unset). */
  setBase(url: string): void {
    this.base = url.replace(/\/+$/, "");
  }

  private sign(id: number, expires: number): string {
    return createHmac("sha256", this.key).update(`${id}.${expires}`).digest("base64url").slice(0, 32);
  }

  url(a: LinkTarget): string {
    const now = Math.floor(this.clock.nowMs() / 1000);
    const expires = (Math.floor(now / DAY) + VALID_DAYS + 1) * DAY;
    return `${this.base}/files/${a.id}/${encodeURIComponent(safeName(a.filename))}?expires=${expires}&signature=${this.signatureOf(a.id, expires)}`;
  }

  private signatureOf(id: number, expires: number): string {
    const kept = this.signed.get(id);
    if (kept?.expires === expires) return kept.signature;
    if (this.signed.size >= SIGNATURES_KEPT) this.signed.clear();
    const signature = this.sign(id, expires);
    this.signed.set(id, { expires, signature });
    return signature;
  }

  /** Whether this link is genuine and not yet expired. */
  verify(id: number, expires: number, signature: string): boolean {
    if (!Number.isSafeInteger(expires) || expires * 1000 <= this.clock.nowMs()) return false;
    const expected = Buffer.from(this.sign(id, expires));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** A file name safe in a URL path segment and in a Content-Disposition header. */
export function safeName(filename: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  const cleaned = filename.replace(/[\u0000-\u001f\u007f"\\/]+/g, "_").trim();
  return cleaned.length > 0 ? cleaned.slice(-200) : "file";
}

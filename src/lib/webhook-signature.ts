// Webhook signing. Two header sets go on every request, both from the same per-webhook secret:
//
// 1. Chatwoot's (v4.11.2+), so receivers written for Chatwoot verify unchanged:
//      X-Chatwoot-Timestamp: <unix seconds of this attempt>
//      X-Chatwoot-Signature: sha256=<lowercase hex HMAC-SHA256(key, "<timestamp>.<raw body>")>
//      X-Chatwoot-Delivery:  <delivery id, the same on every retry>
// 2. Standard Webhooks 1.0 (webhook-id / webhook-timestamp / webhook-signature: v1,<base64 HMAC-SHA256(key,
//    "<id>.<timestamp>.<raw body>")>), so receivers can use the standardwebhooks libraries.
//
// THE KEY, for both schemes, is the UTF-8 bytes of the secret string exactly as the API shows it. That is
// what Chatwoot does, and getting it wrong made signatures unverifiable there (chatwoot#13809). Standard
// Webhooks libraries instead take "whsec_<base64>" and use the DECODED bytes as the key; to feed one of
// them, hand it standardWebhooksSecret(secret), whose base64 part decodes to those same UTF-8 bytes.
//
// The timestamp and signatures are recomputed on every attempt (receivers reject stale timestamps);
// the delivery id is the receiver's idempotency key and never changes across retries.

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export const HEADER_TIMESTAMP = "X-Chatwoot-Timestamp";
export const HEADER_SIGNATURE = "X-Chatwoot-Signature";
export const HEADER_DELIVERY = "X-Chatwoot-Delivery";
export const HEADER_SW_ID = "webhook-id";
export const HEADER_SW_TIMESTAMP = "webhook-timestamp";
export const HEADER_SW_SIGNATURE = "webhook-signature";

function hmac(secret: string, message: string): Buffer {
  // Bun's node:crypto HMAC is synchronous and ~4 µs for a 2 KB body; Strings are hashed as UTF-8.
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(message, "utf8").digest();
}

/** Hex HMAC-SHA256 over "<timestamp>.<body>" (Chatwoot's scheme), without the "sha256=" prefix. */
export function chatwootSignature(secret: string, timestamp: number | string, body: string): string {
  return hmac(secret, `${timestamp}.${body}`).toString("hex");
}

/** Base64 HMAC-SHA256 over "<id>.<timestamp>.<body>" (Standard Webhooks v1), without the "v1," prefix. */
export function standardSignature(secret: string, id: string, timestamp: number | string, body: string): string {
  return hmac(secret, `${id}.${timestamp}.${body}`).toString("base64");
}

/** The secret in Standard Webhooks' "whsec_" form: its base64 part decodes to the secret's UTF-8 bytes. */
export function standardWebhooksSecret(secret: string): string {
  return `whsec_${Buffer.from(secret, "utf8").toString("base64")}`;
}

/**
 * Headers for one delivery attempt. `nowUnix` is the attempt time in seconds (fractions are dropped).
 * The delivery id goes into the signed content and into headers, so it must be non-empty, contain no "."
 * (Standard Webhooks uses "." as the separator) and no whitespace or control characters.
 */
export function signatureHeaders(
  secret: string,
  deliveryId: string,
  body: string,
  nowUnix: number,
): Record<string, string> {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a delivery id must not carry control characters
  if (!/^[^.\s\0-\x1f\x7f]+$/.test(deliveryId))
    throw new TypeError(`invalid webhook delivery id ${JSON.stringify(deliveryId)}`);
  if (!Number.isFinite(nowUnix) || nowUnix < 0) throw new TypeError(`invalid webhook timestamp ${nowUnix}`);
  const ts = String(Math.floor(nowUnix));
  return {
    [HEADER_TIMESTAMP]: ts,
    [HEADER_SIGNATURE]: `sha256=${chatwootSignature(secret, ts, body)}`,
    [HEADER_DELIVERY]: deliveryId,
    [HEADER_SW_ID]: deliveryId,
    [HEADER_SW_TIMESTAMP]: ts,
    [HEADER_SW_SIGNATURE]: `v1,${standardSignature(secret, deliveryId, ts, body)}`,
  };
}

/** Timestamp header → seconds, or null if malformed or outside the tolerance (too old or too far ahead). */
function checkTimestamp(timestamp: unknown, nowUnix: number, toleranceSeconds: number): number | null {
  if (typeof timestamp !== "string" && typeof timestamp !== "number") return null;
  const s = String(timestamp).trim();
  if (!/^\d{1,12}$/.test(s)) return null;
  const ts = Number(s);
  return Math.abs(nowUnix - ts) > toleranceSeconds ? null : ts;
}

/** Constant-time comparison of two byte strings; different lengths are simply unequal. */
function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface VerifyInput {
  secret: string;
  body: string;
  /** X-Chatwoot-Timestamp as received. */
  timestamp: string | number | null | undefined;
  /** X-Chatwoot-Signature as received: "sha256=<64 hex>". */
  signature: string | null | undefined;
  nowUnix: number;
  toleranceSeconds?: number;
}

/** Verifies Chatwoot-style headers, as a receiver would (also used by our tests and docs). */
export function verifySignature(input: VerifyInput): boolean {
  const { secret, body, signature, nowUnix, toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS } = input;
  const ts = checkTimestamp(input.timestamp, nowUnix, toleranceSeconds);
  if (ts === null || typeof signature !== "string") return false;
  const m = /^sha256=([0-9a-fA-F]{64})$/.exec(signature.trim());
  if (!m) return false;
  // Sign the timestamp exactly as received (after trim), not a re-formatted number.
  const expected = Buffer.from(chatwootSignature(secret, String(input.timestamp).trim(), body), "hex");
  return sameBytes(Buffer.from(m[1]!.toLowerCase(), "hex"), expected);
}

export interface VerifyStandardInput {
  secret: string;
  body: string;
  id: string | null | undefined;
  timestamp: string | number | null | undefined;
  /** webhook-signature as received: space-separated "v1,<base64>" entries; any one matching is enough. */
  signature: string | null | undefined;
  nowUnix: number;
  toleranceSeconds?: number;
}

/** Verifies Standard Webhooks headers with the UTF-8-bytes key described at the top of this file. */
export function verifyStandardSignature(input: VerifyStandardInput): boolean {
  const { secret, body, id, signature, nowUnix, toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS } = input;
  const ts = checkTimestamp(input.timestamp, nowUnix, toleranceSeconds);
  if (ts === null || typeof id !== "string" || id === "" || typeof signature !== "string") return false;
  const expected = Buffer.from(standardSignature(secret, id, String(input.timestamp).trim(), body), "base64");
  let ok = false;
  for (const entry of signature.trim().split(/\s+/)) {
    const [version, sig] = entry.split(",", 2);
    if (version !== "v1" || !sig || !/^[A-Za-z0-9+/]+={0,2}$/.test(sig)) continue;
    ok = sameBytes(Buffer.from(sig, "base64"), expected) || ok; // no early exit: check every entry
  }
  return ok;
}

/** A new per-webhook secret: 32 random bytes as base64url (43 characters, no padding). */
export function generateSecret(): string {
  return randomBytes(32).toString("base64url");
}

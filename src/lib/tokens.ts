// Secrets handed to clients (API tokens, session and CSRF tokens, inbox identifiers, pubsub tokens).
// API tokens are stored only as SHA-256 hashes: a random 192-bit token needs no slow KDF, and
// hashing the presented token before the indexed lookup keeps timing independent of how many
// characters of a stored token an attacker has guessed.
import { timingSafeEqual } from "node:crypto";

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"; // base58: no 0/O/I/l

/** A random token of `length` base58 characters (24 chars ≈ 140 bits, like Chatwoot's has_secure_token). */
export function randomToken(length = 24): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
  let out = "";
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const b = bytes[i]!;
    // Reject bytes that would bias the modulo (58 * 4 = 232).
    if (b < 232) out += ALPHABET[b % 58];
  }
  return out.length === length ? out : out + randomToken(length - out.length);
}

/** A new API access token: 32 base58 characters. */
export function newAccessToken(): string {
  return randomToken(32);
}

export function sha256Hex(value: string): string {
  return new Bun.CryptoHasher("sha256").update(value).digest("hex");
}

/** A new browser session token: 32 base58 characters, like API tokens. */
export function newSessionToken(): string {
  return randomToken(32);
}

/**
 * The CSRF token of a session: HMAC-SHA256 keyed by the session token (OWASP's signed
 * double-submit). Nothing more is stored; it cannot be forged without the httpOnly cookie, and it
 * does not reveal the session token.
 */
export function csrfTokenFor(sessionToken: string): string {
  return new Bun.CryptoHasher("sha256", sessionToken).update("parley-csrf-v1").digest("base64url");
}

/** Compares two secrets in time independent of where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

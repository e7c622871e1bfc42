import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import {
  generateSecret,
  signatureHeaders,
  standardWebhooksSecret,
  verifySignature,
  verifyStandardSignature,
} from "../../src/lib/webhook-signature.ts";

const secret = "whk_Zm9vYmFyYmF6cXV4";
const body = '{"event":"message_created","id":42,"content":"héllo ✓"}';
const now = 1_767_225_600; // 2026-01-01T00:00:00Z
const deliveryId = "6f1c2a52-3b1e-4f0a-9d59-0c1f6c9e2b11";

// Computed here, independently of the module, the way a Chatwoot receiver does it.
const expectedHex = createHmac("sha256", secret).update(`${now}.${body}`).digest("hex");
const expectedStd = createHmac("sha256", Buffer.from(secret, "utf8"))
  .update(`${deliveryId}.${now}.${body}`)
  .digest("base64");

describe("signatureHeaders", () => {
  const h = signatureHeaders(secret, deliveryId, body, now);

  test("Chatwoot headers match an independently computed HMAC", () => {
    expect(h["X-Chatwoot-Timestamp"]).toBe("1767225600");
    expect(h["X-Chatwoot-Signature"]).toBe(`sha256=${expectedHex}`);
    expect(h["X-Chatwoot-Signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(h["X-Chatwoot-Delivery"]).toBe(deliveryId);
  });

  test("a fixed vector (guards against the key or message format drifting)", () => {
    const v = signatureHeaders("secret", "d1", "{}", 1_700_000_000);
    expect(v["X-Chatwoot-Signature"]).toBe(
      `sha256=${createHmac("sha256", "secret").update("1700000000.{}").digest("hex")}`,
    );
  });

  test("Standard Webhooks headers ride along", () => {
    expect(h["webhook-id"]).toBe(deliveryId);
    expect(h["webhook-timestamp"]).toBe("1767225600");
    expect(h["webhook-signature"]).toBe(`v1,${expectedStd}`);
  });

  test("a whsec_ secret decodes to the same key bytes a standardwebhooks library would use", () => {
    const wh = standardWebhooksSecret(secret);
    expect(wh.startsWith("whsec_")).toBe(true);
    const key = Buffer.from(wh.slice("whsec_".length), "base64");
    expect(createHmac("sha256", key).update(`${deliveryId}.${now}.${body}`).digest("base64")).toBe(expectedStd);
  });

  test("re-signed per attempt, delivery id unchanged", () => {
    const later = signatureHeaders(secret, deliveryId, body, now + 305.9);
    expect(later["X-Chatwoot-Timestamp"]).toBe(String(now + 305));
    expect(later["X-Chatwoot-Signature"]).not.toBe(h["X-Chatwoot-Signature"]);
    expect(later["X-Chatwoot-Delivery"]).toBe(deliveryId);
    expect(later["webhook-id"]).toBe(deliveryId);
  });

  test("rejects delivery ids that would break the signed content or headers", () => {
    expect(() => signatureHeaders(secret, "a.b", body, now)).toThrow(TypeError);
    expect(() => signatureHeaders(secret, "a\r\nx: y", body, now)).toThrow(TypeError);
    expect(() => signatureHeaders(secret, "", body, now)).toThrow(TypeError);
  });
});

describe("verifySignature", () => {
  const good = { secret, body, timestamp: String(now), signature: `sha256=${expectedHex}`, nowUnix: now };

  test("accepts the known vector", () => {
    expect(verifySignature(good)).toBe(true);
    expect(verifySignature({ ...good, nowUnix: now + 300 })).toBe(true); // edge of the window
    expect(verifySignature({ ...good, signature: `sha256=${expectedHex.toUpperCase()}` })).toBe(true);
  });

  test("rejects a tampered body", () => {
    expect(verifySignature({ ...good, body: body.replace("42", "43") })).toBe(false);
  });

  test("rejects a wrong secret", () => {
    expect(verifySignature({ ...good, secret: `${secret}x` })).toBe(false);
  });

  test("rejects timestamps outside ±300 s", () => {
    expect(verifySignature({ ...good, nowUnix: now + 301 })).toBe(false); // too old
    expect(verifySignature({ ...good, nowUnix: now - 301 })).toBe(false); // too far in the future
    expect(verifySignature({ ...good, nowUnix: now + 1000, toleranceSeconds: 1000 })).toBe(true);
  });

  test("rejects a timestamp that differs from the signed one", () => {
    expect(verifySignature({ ...good, timestamp: String(now + 1) })).toBe(false);
  });

  test("rejects malformed headers", () => {
    for (const signature of [
      expectedHex,
      `sha1=${expectedHex}`,
      `sha256=${expectedHex.slice(2)}`,
      `sha256=${expectedHex}00`,
      "sha256=",
      "",
      null,
      undefined,
    ]) {
      expect(verifySignature({ ...good, signature })).toBe(false);
    }
    for (const timestamp of ["", "abc", "1.5e9", `${now}.0`, "-1", null, undefined]) {
      expect(verifySignature({ ...good, timestamp })).toBe(false);
    }
  });
});

describe("verifyStandardSignature", () => {
  const good = { secret, body, id: deliveryId, timestamp: String(now), signature: `v1,${expectedStd}`, nowUnix: now };

  test("accepts the vector, also among several signatures (secret rotation)", () => {
    expect(verifyStandardSignature(good)).toBe(true);
    expect(verifyStandardSignature({ ...good, signature: `v1,AAAA v1,${expectedStd}` })).toBe(true);
  });

  test("rejects tampering, other ids, stale timestamps and other versions", () => {
    expect(verifyStandardSignature({ ...good, body: `${body} ` })).toBe(false);
    expect(verifyStandardSignature({ ...good, id: "other" })).toBe(false);
    expect(verifyStandardSignature({ ...good, nowUnix: now + 301 })).toBe(false);
    expect(verifyStandardSignature({ ...good, signature: `v1a,${expectedStd}` })).toBe(false);
  });
});

test("generateSecret: 32 random bytes, base64url", () => {
  const a = generateSecret();
  const b = generateSecret();
  expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(Buffer.from(a, "base64url").length).toBe(32);
  expect(a).not.toBe(b);
});

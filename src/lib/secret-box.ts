// Encrypts the few secrets Parley must be able to read back (an email inbox's IMAP and SMTP
// passwords): AES-256-GCM with a random nonce, so a copy of the database alone does not give them
// away. Stored as "v1:" + base64(nonce | tag | ciphertext); the version leaves room for a new scheme.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const PREFIX = "v1:";
const NONCE = 12;
const TAG = 16;

export class SecretBox {
  private readonly key: Buffer;

  /** Any text or bytes as key material: it is hashed to the 32 bytes AES-256 takes. */
  constructor(material: string | Uint8Array) {
    this.key = createHash("sha256").update(material).digest();
  }

  seal(plain: string): string {
    const nonce = randomBytes(NONCE);
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString("base64");
  }

  /** The plain text, or null when the text was sealed with another key or is damaged. */
  open(sealed: string): string | null {
    if (!sealed.startsWith(PREFIX)) return null;
    const raw = Buffer.from(sealed.slice(PREFIX.length), "base64");
    if (raw.length < NONCE + TAG) return null;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, NONCE));
      decipher.setAuthTag(raw.subarray(NONCE, NONCE + TAG));
      return Buffer.concat([decipher.update(raw.subarray(NONCE + TAG)), decipher.final()]).toString("utf8");
    } catch {
      return null;
    }
  }
}

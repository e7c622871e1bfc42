// Where the key that seals mailbox passwords comes from: PARLEY_SECRET_KEY when set; else a random
// key in the file `<db>.key` beside the database, made on first start with mode 0600. Kept apart
// from the database on purpose: a leaked copy of parley.db alone does not reveal the passwords.
// An in-memory database (tests) gets a key for the life of the process.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import type { MailConfig } from "../config-mail.ts";
import { SecretBox } from "../lib/secret-box.ts";

export function loadSecretBox(config: Pick<MailConfig, "secretKey" | "keyFile">): SecretBox {
  if (config.secretKey) return new SecretBox(config.secretKey);
  if (config.keyFile === null) return new SecretBox(randomBytes(32));
  if (!existsSync(config.keyFile)) {
    try {
      // "wx": two processes starting at once keep the first file, never two keys.
      writeFileSync(config.keyFile, `${randomBytes(32).toString("base64")}\n`, { flag: "wx", mode: 0o600 });
      chmodSync(config.keyFile, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  return new SecretBox(readFileSync(config.keyFile, "utf8").trim());
}

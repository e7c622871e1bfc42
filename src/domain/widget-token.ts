// The website visitor's X-Auth-Token, shaped like Chatwoot's: a JWT (HS256) whose payload names
// the visitor's identity in the inbox, {source_id, inbox_id}. It never expires (a returning
// visitor keeps their thread) and is signed with a key derived from the inbox's hmac_token, so it
// opens nothing in another inbox and rotating the inbox's secret signs every visitor out.
import { sameSecret } from "../lib/tokens.ts";

export interface WidgetClaims {
  source_id: string;
  inbox_id: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");

function key(hmacToken: string): string {
  return new Bun.CryptoHasher("sha256", hmacToken).update("parley-widget-auth-v1").digest("hex");
}

function signature(hmacToken: string, body: string): string {
  return new Bun.CryptoHasher("sha256", key(hmacToken)).update(body).digest("base64url");
}

export function signWidgetToken(hmacToken: string, claims: WidgetClaims): string {
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return `${body}.${signature(hmacToken, body)}`;
}

/** The claims of a token this inbox signed, or null (malformed, forged, another inbox's). */
export function readWidgetToken(hmacToken: string, inboxId: number, token: string): WidgetClaims | null {
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== HEADER) return null;
  if (!sameSecret(parts[2]!, signature(hmacToken, `${parts[0]}.${parts[1]}`))) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, "base64url").toString()) as Partial<WidgetClaims>;
    if (typeof claims.source_id !== "string" || claims.inbox_id !== inboxId) return null;
    return { source_id: claims.source_id, inbox_id: inboxId };
  } catch {
    return null;
  }
}

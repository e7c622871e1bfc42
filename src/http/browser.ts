// What the web app's requests carry beyond the API's: the session cookie, the CSRF header, the
// client's address and scheme (from the proxy's headers only when PARLEY_TRUST_PROXY=1).
import type { Credentials } from "../domain/auth.service.ts";
import { CsrfError } from "../domain/errors.ts";
import { SESSION_MAX_SECONDS } from "../domain/sessions.service.ts";

export const SESSION_COOKIE = "parley_session";
export const CSRF_HEADER = "x-csrf-token";

type Headers = Record<string, string | undefined>;

export function sessionTokenOf(headers: Headers): string | null {
  const raw = headers.cookie;
  if (!raw) return null;
  for (const part of raw.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

export function credentialsOf(headers: Headers, method: string): Credentials {
  return {
    // Rails reads both spellings as HTTP_API_ACCESS_TOKEN; n8n sends `Api-Access-Token` (headers arrive lower-cased).
    apiToken: headers.api_access_token ?? headers["api-access-token"],
    sessionToken: sessionTokenOf(headers),
    csrfToken: headers[CSRF_HEADER],
    safeMethod: method === "GET" || method === "HEAD" || method === "OPTIONS",
  };
}

/**
 * httpOnly: scripts (and so injected scripts) cannot read it. SameSite=Strict: no cross-site
 * request carries it; the web app still works because /app itself needs no cookie, and its own
 * fetches are same-site. Secure whenever the browser reached us over https.
 */
export function sessionCookie(token: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_MAX_SECONDS}${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? "; Secure" : ""}`;
}

export function isHttps(request: Request, headers: Headers, trustProxy: boolean): boolean {
  if (request.url.startsWith("https:")) return true;
  return trustProxy && headers["x-forwarded-proto"]?.split(",")[0]?.trim() === "https";
}

interface AddressSource {
  requestIP(request: Request): { address: string } | null;
}

/** The client's address: the socket's, or behind a trusted proxy the last X-Forwarded-For hop (the one the proxy added). */
export function clientIp(
  request: Request,
  headers: Headers,
  server: AddressSource | null,
  trustProxy: boolean,
): string | null {
  if (trustProxy) {
    const hops = headers["x-forwarded-for"]
      ?.split(",")
      .map((h) => h.trim())
      .filter(Boolean);
    if (hops?.length) return hops[hops.length - 1]!;
  }
  return server?.requestIP(request)?.address ?? null;
}

/**
 * Login CSRF: a cross-site form could sign a victim into the attacker's account. Browsers say
 * where a request comes from in Sec-Fetch-Site; refuse anything but our own pages (API clients
 * send no such header).
 */
export function refuseCrossSite(headers: Headers): void {
  const site = headers["sec-fetch-site"];
  if (site && site !== "same-origin" && site !== "none") throw new CsrfError("sign-in from another site is refused");
}

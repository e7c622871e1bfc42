// SSRF guard for outgoing webhook requests: users choose the URL, the server makes the request, so a
// URL must never reach loopback, the private network or the cloud metadata service unless an admin allows it.
// Bun's fetch has no `lookup` hook (it ignores one), so we resolve the name ourselves, check every address,
// and connect to the vetted IP literal with the original Host header and TLS server name. A DNS answer that
// changes between check and connect (rebinding) therefore cannot move the request.

import { classifyAddress, isAllowedAddress, parseIp, type AddressKind } from "./ip-ranges.ts";

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** The URL is unusable whatever DNS says (bad scheme, credentials, garbage): retrying will not help. */
export class InvalidTargetError extends Error {
  override name = "InvalidTargetError";
}

/** The host resolves only to addresses the policy forbids. */
export class BlockedTargetError extends Error {
  override name = "BlockedTargetError";
  constructor(
    readonly host: string,
    readonly address: string,
    readonly kind: AddressKind,
    alwaysBlocked: boolean,
  ) {
    const article = /^[aeiou]/.test(kind) ? "an" : "a";
    const what = parseIp(host) ? `address ${address} is` : `host ${host} resolves to ${address},`;
    super(
      `${what} ${article} ${kind} address${alwaysBlocked ? " (blocked even when private delivery is allowed)" : ""}`,
    );
  }
}

/** The name did not resolve (NXDOMAIN, resolver down): may succeed later, so the job loop retries. */
export class TargetLookupError extends Error {
  override name = "TargetLookupError";
}

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export function parseTargetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidTargetError("not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new InvalidTargetError("URL must use http or https");
  if (url.username !== "" || url.password !== "") throw new InvalidTargetError("URL must not contain credentials");
  if (url.hostname === "") throw new InvalidTargetError("URL must have a host");
  return url;
}

/** Parses the URL, resolves its host, and returns the first address the policy allows; every address is checked. */
export async function resolveTarget(raw: string, opts: { allowPrivate: boolean }): Promise<ResolvedTarget> {
  const url = parseTargetUrl(raw);
  return { url, ...(await resolveHost(url.hostname, opts)) };
}

/**
 * A host name or literal address (IPv6 with or without brackets) resolved to the first address the
 * policy allows; every address is checked. Webhook targets and mail servers both go through it.
 */
export async function resolveHost(
  rawHost: string,
  opts: { allowPrivate: boolean },
): Promise<{ address: string; family: 4 | 6 }> {
  const host = rawHost.replace(/^\[(.*)\]$/, "$1");
  let candidates: { address: string; family: 4 | 6 }[];
  const literal = parseIp(host);
  if (literal) {
    candidates = [{ address: host, family: literal.family }];
  } else {
    try {
      const found = await Bun.dns.lookup(host);
      candidates = found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
    } catch (e) {
      throw new TargetLookupError(`could not resolve ${host} (${(e as { code?: string }).code ?? String(e)})`);
    }
    if (candidates.length === 0) throw new TargetLookupError(`could not resolve ${host} (no addresses)`);
  }
  for (const c of candidates) {
    if (isAllowedAddress(c.address, opts)) return c;
  }
  // Report the first refusal; every candidate was refused, so any of them explains the outcome.
  const first = candidates[0]!;
  const kind = classifyAddress(first.address) ?? "reserved";
  throw new BlockedTargetError(host, first.address, kind, opts.allowPrivate);
}

export interface SafePostOptions {
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  maxResponseBytes: number;
  allowPrivate: boolean;
  /** Extra trusted CA certificates (PEM), for receivers behind a private CA and for tests. */
  ca?: string | string[];
}

export interface SafePostResult {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  /** null when ok; "HTTP 500", "timeout after 5000 ms", "blocked: …", "invalid: …", "connection refused …" otherwise. */
  error: string | null;
  responseBody: string;
  retryAfterSeconds: number | null;
  /** The IP the request went to (null when none was chosen), for delivery logs. */
  address: string | null;
}

const DEFAULT_HEADERS: Record<string, string> = {
  "content-type": "application/json",
  accept: "application/json",
  "user-agent": "Parley-Webhooks",
};

/** Retry-After is either delta-seconds or an HTTP date; anything else is ignored. */
export function parseRetryAfter(value: string | null, nowMs = Date.now()): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  // An HTTP date always names its month; without this, Date.parse would read "-5" as a year.
  const at = /[a-z]{3}/i.test(v) ? Date.parse(v) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** Reads at most `limit` bytes, then cancels the stream so a huge or endless answer cannot hold memory. */
async function readLimited(res: Response, limit: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = value.subarray(0, limit - size);
      chunks.push(take);
      size += take.length;
    }
  } catch {
    // A body that fails or times out after the status line arrived: the status already decided the outcome.
  } finally {
    reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(Buffer.concat(chunks)); // a cut multi-byte character becomes U+FFFD
}

function describeFetchError(e: unknown, target: string, timeoutMs: number, signal: AbortSignal): string {
  const err = e as { name?: string; code?: string; message?: string };
  if (signal.aborted || err.name === "TimeoutError") return `timeout after ${timeoutMs} ms`;
  if (err.code === "ECONNREFUSED") return `connection refused (${target})`;
  if (err.code === "ECONNRESET") return `connection reset (${target})`;
  if (err.code?.startsWith("ERR_TLS") || err.code?.includes("CERT")) return `tls error: ${err.code}`;
  return `network error: ${err.code ?? err.name ?? "Error"}: ${err.message ?? String(e)}`;
}

/**
 * POSTs to a user-supplied URL without ever throwing: resolves and checks the host, pins the checked IP,
 * refuses to follow redirects, bounds time (DNS included) and response size. Failures come back as data.
 */
export async function safePost(rawUrl: string, opts: SafePostOptions): Promise<SafePostResult> {
  const started = performance.now();
  const signal = AbortSignal.timeout(opts.timeoutMs);
  const result = (r: Partial<SafePostResult>): SafePostResult => ({
    ok: false,
    status: null,
    error: null,
    responseBody: "",
    retryAfterSeconds: null,
    address: null,
    ...r,
    latencyMs: Math.round(performance.now() - started),
  });

  const headers: Record<string, string> = { ...DEFAULT_HEADERS };
  for (const [k, v] of Object.entries(opts.headers)) {
    // fetch would throw on these anyway; refusing here makes it a permanent "invalid" instead of a retry loop.
    if (/[\r\n\0]/.test(k) || /[\r\n\0]/.test(v))
      return result({ error: `invalid: header ${JSON.stringify(k)} contains a line break` });
    headers[k.toLowerCase()] = v;
  }

  let target: ResolvedTarget;
  try {
    // Bun.dns.lookup takes no signal, so race it against the same deadline as the request.
    const timedOut = new Promise<never>((_, reject) => {
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
    target = await Promise.race([resolveTarget(rawUrl, { allowPrivate: opts.allowPrivate }), timedOut]);
  } catch (e) {
    if (e instanceof BlockedTargetError) return result({ error: `blocked: ${e.message}` });
    if (e instanceof InvalidTargetError) return result({ error: `invalid: ${e.message}` });
    if (e instanceof TargetLookupError) return result({ error: `dns: ${e.message}` });
    return result({ error: signal.aborted ? `timeout after ${opts.timeoutMs} ms` : `dns: ${String(e)}` });
  }

  const { url, address, family } = target;
  const ipHost = family === 6 ? `[${address}]` : address;
  const pinned = `${url.protocol}//${ipHost}${url.port ? `:${url.port}` : ""}${url.pathname}${url.search}`;
  headers.host = url.host; // keeps the port when it is not the default, as a browser would send it
  // SNI and the certificate check use the name, not the IP (an IP-literal URL is checked against the IP).
  // Bun keys its connection pool by IP, port and serverName, so two hosts on one IP never share a TLS session.
  const tls: { serverName?: string; ca?: string | string[] } = {};
  if (parseIp(url.hostname) === null) tls.serverName = url.hostname.replace(/\.$/, "");
  if (opts.ca) tls.ca = opts.ca;

  let res: Response;
  try {
    res = await fetch(pinned, {
      method: "POST",
      body: opts.body,
      headers,
      redirect: "manual",
      signal,
      ...(url.protocol === "https:" ? { tls } : {}),
    });
  } catch (e) {
    return result({
      address,
      error: describeFetchError(
        e,
        `${ipHost}:${url.port || (url.protocol === "https:" ? 443 : 80)}`,
        opts.timeoutMs,
        signal,
      ),
    });
  }
  const responseBody = await readLimited(res, opts.maxResponseBytes);
  const ok = res.status >= 200 && res.status < 300;
  const location = res.status >= 300 && res.status < 400 ? res.headers.get("location") : null;
  const error = ok
    ? null
    : location !== null
      ? `HTTP ${res.status}: redirect to ${location} not followed`
      : `HTTP ${res.status}`;
  return result({
    ok,
    status: res.status,
    address,
    error,
    responseBody,
    retryAfterSeconds: parseRetryAfter(res.headers.get("retry-after")),
  });
}

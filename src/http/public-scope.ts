// The public (client) API's request layer: the per-address limit, taken before anything is parsed
// or looked up (so unknown identifiers cost a guesser the same as known ones), and the derives that
// resolve `:inbox_identifier` and `:contact_identifier` (404) before the body is validated.
import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { clientIp } from "./browser.ts";

export const PUBLIC_PREFIX = "/public/api/v1/inboxes";

interface AddressSource {
  requestIP(request: Request): { address: string } | null;
}

/** The client's address as the sign-in limits see it (X-Forwarded-For only with PARLEY_TRUST_PROXY=1). */
export function clientAddress(request: Request, server: AddressSource | null, trustProxy: boolean): string | null {
  return clientIp(
    request,
    { "x-forwarded-for": request.headers.get("x-forwarded-for") ?? undefined },
    server,
    trustProxy,
  );
}

/** The public API and the website chat's API (/api/v1/widget/): both answer anyone. */
function isPublicPath(url: string): boolean {
  const path = url.indexOf("/", url.indexOf("//") + 2);
  return path >= 0 && (url.startsWith("/public/", path) || url.startsWith("/api/v1/widget/", path));
}

/** 429 with Retry-After once an address sends more public (or widget) requests than PARLEY_PUBLIC_REQUESTS_PER_MINUTE. */
export function publicRequestLimit(d: Deps) {
  return new Elysia({ name: "parley-public-limit" }).onRequest(({ request, server }) => {
    if (isPublicPath(request.url)) d.services.publicLimits.request(clientAddress(request, server, d.config.trustProxy));
  });
}

/**
 * Routes under /public/api/v1/inboxes/:inbox_identifier/contacts/:contact_identifier: the scope.
 * Awaited on PostgreSQL (its reads go to the read pool), in place on SQLite, as the account routes'
 * caller (src/http/auth.ts: Elysia awaits a derive only when it is an async function).
 */
export function publicContactScope(d: Deps) {
  const contacts = d.services.publicContacts;
  type Params = { params: unknown };
  const ids = (params: unknown) => params as { inbox_identifier?: string; contact_identifier?: string };
  const derive = d.services.auth.callersAwait
    ? async ({ params }: Params) => ({
        scope: await contacts.scopeSoon(ids(params).inbox_identifier ?? "", ids(params).contact_identifier ?? ""),
      })
    : ({ params }: Params) => ({
        scope: contacts.scope(ids(params).inbox_identifier ?? "", ids(params).contact_identifier ?? ""),
      });
  return new Elysia().derive({ as: "scoped" }, derive);
}

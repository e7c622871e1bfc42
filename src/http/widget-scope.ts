// The website chat API's request layer (/api/v1/widget/*): the inbox from `?website_token=`, the
// visitor from the X-Auth-Token header, and CORS limited to the inbox's allowed origins. The chat
// page itself is served from this origin and needs no CORS; another site may call the API only
// when the inbox lists its origin (domain/widget-settings.ts decides, as for frame-ancestors).
import { Elysia } from "elysia";
import type { PublicInboxRow } from "../db/public.repo.ts";
import type { Deps } from "../deps.ts";
import { channelAttributes } from "../domain/presenters/inbox.presenter.ts";
import { embeddingOrigins } from "../domain/widget-settings.ts";

export const WIDGET_PREFIX = "/api/v1/widget";

const CORS_METHODS = "GET, POST, PATCH, PUT, DELETE, OPTIONS";
const CORS_HEADERS = "content-type, x-auth-token";

/** Whether a page of this origin may use this inbox's chat (its own origin always may). */
export function originAllowed(inbox: PublicInboxRow, origin: string, request: Request): boolean {
  return origin === new URL(request.url).origin || embeddingOrigins(channelAttributes(inbox)).includes(origin);
}

/** CORS headers for an allowed cross-origin caller; none otherwise (the browser then refuses it). */
export function corsHeaders(inbox: PublicInboxRow | null, request: Request): Record<string, string> {
  const origin = request.headers.get("origin");
  if (!origin || !inbox || !originAllowed(inbox, origin, request)) return {};
  return {
    "access-control-allow-origin": origin,
    "access-control-allow-headers": CORS_HEADERS,
    "access-control-allow-methods": CORS_METHODS,
    vary: "origin",
  };
}

/**
 * The inbox (404 for a wrong website_token) and, lazily, the visitor (401 without a valid token):
 * `visitor()` in place, `visitorSoon()` on committed rows (awaited on PostgreSQL's read pool, for
 * routes whose writes are awaited bodies), `visitorReads()` as a step of a read-only route's Reads. The inbox is
 * awaited on PostgreSQL (an async derive there, as the account routes' caller: src/http/auth.ts).
 */
export function widgetScope(d: Deps) {
  const widget = d.services.widget;
  type Ctx = { query: unknown; request: Request; set: { headers: Record<string, unknown> } };
  const scoped = (inbox: PublicInboxRow, request: Request, set: Ctx["set"]) => {
    Object.assign(set.headers, corsHeaders(inbox, request));
    const authToken = request.headers.get("x-auth-token");
    return {
      inbox,
      authToken,
      visitor: () => widget.visitor(inbox, authToken),
      visitorSoon: () => widget.visitorSoon(inbox, authToken),
      visitorReads: () => widget.readVisitor(inbox, authToken),
    };
  };
  const token = (query: unknown) => (query as Record<string, unknown>).website_token;
  const derive = d.services.auth.callersAwait
    ? async ({ query, request, set }: Ctx) => scoped(await widget.inboxLater(token(query)), request, set)
    : ({ query, request, set }: Ctx) => scoped(widget.inbox(token(query)), request, set);
  return new Elysia().derive({ as: "scoped" }, derive);
}

/** Preflights: answered for allowed origins, 403 for the rest. The inbox is awaited on PostgreSQL, as above. */
export function widgetPreflight(d: Deps) {
  const widget = d.services.widget;
  const answer = (inbox: PublicInboxRow | null, request: Request) => {
    const headers = corsHeaders(inbox, request);
    return new Response(null, { status: headers["access-control-allow-origin"] ? 204 : 403, headers });
  };
  type Ctx = { query: unknown; request: Request };
  const token = (query: unknown) => (query as Record<string, unknown>).website_token;
  const preflight = d.services.auth.callersAwait
    ? async ({ query, request }: Ctx) => answer(await widget.inboxLater(token(query)).catch(() => null), request)
    : ({ query, request }: Ctx) => {
        let inbox: PublicInboxRow | null = null;
        try {
          inbox = widget.inbox(token(query));
        } catch {
          inbox = null;
        }
        return answer(inbox, request);
      };
  return new Elysia().options(`${WIDGET_PREFIX}/*`, preflight, { detail: { hide: true } });
}

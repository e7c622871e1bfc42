// Rails conventions that clients written for Chatwoot rely on, applied to every route in one
// place so routes added later get them too:
// - PUT answers wherever PATCH does (Rails routes `resources` updates to both verbs; n8n sends PUT);
// - query-string parameters count as body parameters on POST/PUT/PATCH, the body winning on a
//   conflict (the mobile app sends `POST .../assignments?team_id=3` with no body).
import { Elysia } from "elysia";
import { fromEntries, type Body } from "./body.ts";

interface Routed {
  routes: { method: string; path: string }[];
  handle(request: Request): Promise<Response>;
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** `/a/:id/b` → a regular expression matching that path with any segment for each parameter. */
function pathPattern(path: string): RegExp {
  const escaped = path
    .split("/")
    .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg === "*" ? ".*" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^${escaped.join("/")}/?$`);
}

/**
 * Re-dispatches a PUT as PATCH when no PUT route matches the path but a PATCH route does.
 * `app` is filled in by the caller once the application is built (request hooks are always global).
 */
export function putAsPatch(holder: { app?: Routed }) {
  const app = () => holder.app!;
  let patterns: { put: RegExp[]; patch: RegExp[] } | null = null;
  const compiled = () => {
    // Built on the first request, when every route is registered.
    patterns ??= {
      put: app()
        .routes.filter((r) => r.method === "PUT")
        .map((r) => pathPattern(r.path)),
      patch: app()
        .routes.filter((r) => r.method === "PATCH")
        .map((r) => pathPattern(r.path)),
    };
    return patterns;
  };
  return new Elysia({ name: "parley-put-as-patch" }).onRequest(({ request }) => {
    if (request.method !== "PUT") return;
    const path = new URL(request.url).pathname;
    const { put, patch } = compiled();
    if (put.some((p) => p.test(path)) || !patch.some((p) => p.test(path))) return;
    return app().handle(new Request(request, { method: "PATCH" }));
  });
}

/** The body with the query string's parameters beneath it (Rails' params); the body wins on a conflict. */
export function withQueryParameters(request: Request, body: unknown): unknown {
  if (!BODY_METHODS.has(request.method)) return body;
  const url = request.url;
  const q = url.indexOf("?");
  if (q < 0 || q === url.length - 1) return body;
  if (body !== null && (typeof body !== "object" || Array.isArray(body) || body instanceof ArrayBuffer)) return body;
  const query = fromEntries(new URLSearchParams(url.slice(q + 1)).entries());
  return { ...query, ...((body ?? {}) as Body) };
}
